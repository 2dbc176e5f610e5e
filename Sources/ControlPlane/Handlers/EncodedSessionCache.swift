import JSONCodec
import TransferModels
import TransferStore

/// The JSON of each session as last sent, reused while the session is unchanged.
///
/// `GET /v1/sessions/{id}` is the hottest read; encoding ~30 configuration fields with `JSONEncoder` costs
/// far more than comparing the record with the one the bytes were made from.
final class EncodedSessionCache: Sendable {
    private let entries = LockedBox<[String: (record: SessionRecord, json: [UInt8])]>([:])
    /// Entries kept at most: sessions come and go (retention deletes them), and a cache that only grew
    /// would hold every session ever read. Past it the cache starts again empty, which costs one encoding
    /// per session read afterwards.
    static let capacity = 10_000

    func json(for record: SessionRecord) throws -> [UInt8] {
        if let entry = entries.withLock({ $0[record.id] }), entry.record == record { return entry.json }
        let json = try WireJSON.encode(record.wire)
        entries.withLock { entries in
            if entries.count >= Self.capacity, entries[record.id] == nil { entries.removeAll(keepingCapacity: true) }
            entries[record.id] = (record, json)
        }
        return json
    }
}
