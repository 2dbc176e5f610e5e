import JSONCodec
import TransferModels

/// The JSON of each session as last sent, reused while the session and its delegate's delivery state
/// are unchanged.
///
/// `GET /v1/sessions/{id}` is the hottest read; encoding ~30 configuration fields with `JSONEncoder` costs
/// far more than comparing the record (and the delivery state) with the ones the bytes were made from.
final class EncodedSessionCache: Sendable {
    private typealias Entry = (record: SessionRecord, delivery: DelegateDeliveryRecord?, json: [UInt8])
    private let entries = LockedBox<[String: Entry]>([:])
    /// Entries kept at most: sessions come and go (retention deletes them), and a cache that only grew
    /// would hold every session ever read. Past it the cache starts again empty, which costs one encoding
    /// per session read afterwards.
    static let capacity = 10_000

    /// `delivery` must have been read from the row just now (see `DelegateDeliveryRecord`); nil for a
    /// session without a delegate.
    func json(for record: SessionRecord, delivery: DelegateDeliveryRecord?) throws -> [UInt8] {
        if let entry = entries.withLock({ $0[record.id] }), entry.record == record, entry.delivery == delivery { return entry.json }
        let json = try WireJSON.encode(record.wire(delivery: delivery))
        entries.withLock { entries in
            if entries.count >= Self.capacity, entries[record.id] == nil { entries.removeAll(keepingCapacity: true) }
            entries[record.id] = (record, delivery, json)
        }
        return json
    }
}
