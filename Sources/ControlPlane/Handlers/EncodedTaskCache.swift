import JSONCodec
import TransferModels
import TransferStore

/// The JSON of each task as last sent, reused while the task's row is unchanged (as `EncodedSessionCache`).
///
/// A completed task's answer carries its metrics: encoding them costs far more than comparing the record
/// with the one the bytes were made from.
final class EncodedTaskCache: Sendable {
    private let entries = LockedBox(BoundedCache<String, (record: TaskRecord, json: [UInt8])>(capacity: 2048))

    func json(for record: TaskRecord) throws -> [UInt8] {
        if let entry = entries.withLock({ $0[record.id] }), entry.record == record { return entry.json }
        let json = try WireJSON.encode(record.wire)
        entries.withLock { _ = $0.insert((record, json), for: record.id) }
        return json
    }
}
