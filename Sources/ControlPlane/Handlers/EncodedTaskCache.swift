import JSONCodec
import TransferModels
import TransferStore

/// The JSON of each task as last sent, reused while the task's row is unchanged (as `EncodedSessionCache`).
///
/// A completed task's answer carries its metrics: encoding them costs far more than comparing the record
/// with the one the bytes were made from.
///
/// A task's JSON is a few KiB; one past `maximumEntryBytes` (many or long header fields) is encoded each
/// time rather than kept, so the cache stays within about `capacity` × that.
final class EncodedTaskCache: Sendable {
    private let entries = LockedBox(BoundedCache<String, (record: TaskRecord, json: [UInt8])>(capacity: 2048))
    static let maximumEntryBytes = 16 * 1024

    func json(for record: TaskRecord) throws -> [UInt8] {
        if let entry = entries.withLock({ $0[record.id] }), entry.record == record { return entry.json }
        let json = try WireJSON.encode(record.wire)
        guard json.count <= Self.maximumEntryBytes else { return json }
        entries.withLock { _ = $0.insert((record, json), for: record.id) }
        return json
    }
}
