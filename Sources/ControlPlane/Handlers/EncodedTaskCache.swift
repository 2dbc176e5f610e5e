import JSONCodec
import TransferModels

/// The JSON of each task as last sent, reused while the task's row is unchanged (as `EncodedSessionCache`);
/// a running task's for at most `runningTaskLifetime` besides, since its rate (`TaskService.withLiveRate`)
/// changes with no write to the row — above all when the transfer stalls and no counter moves.
///
/// A completed task's answer carries its metrics: encoding them costs far more than comparing the record
/// with the one the bytes were made from.
///
/// A task's JSON is a few KiB; one past `maximumEntryBytes` (many or long header fields) is encoded each
/// time rather than kept, so the cache stays within about `capacity` × that.
final class EncodedTaskCache: Sendable {
    private struct Entry {
        var record: TaskRecord
        var json: [UInt8]
        /// Set for a running task: when its rate may have moved too far to show.
        var expires: ContinuousClock.Instant?
    }

    private let entries = LockedBox(BoundedCache<String, Entry>(capacity: 2048))
    static let maximumEntryBytes = 16 * 1024
    /// How stale a running task's rate may be when answered from here. The row of a transfer that moves
    /// changes every quarter second anyway (the report writer's counters), so this bounds mostly the
    /// stalled ones and the polls between two writes.
    static let runningTaskLifetime = Duration.seconds(1)

    /// The JSON of `record`, made by `wire` (the API's view of it, with its rate) when none is current.
    func json(for record: TaskRecord, wire: (TaskRecord) -> TransferTask) throws -> [UInt8] {
        if let entry = entries.withLock({ $0[record.id] }), entry.record == record, Self.isCurrent(entry) {
            return entry.json
        }
        let json = try WireJSON.encode(wire(record))
        guard json.count <= Self.maximumEntryBytes else { return json }
        let expires = record.state == .running ? ContinuousClock.now + Self.runningTaskLifetime : nil
        entries.withLock { _ = $0.insert(Entry(record: record, json: json, expires: expires), for: record.id) }
        return json
    }

    /// A finished or suspended task's entry needs no clock: only a running task's rate moves.
    private static func isCurrent(_ entry: Entry) -> Bool {
        guard let expires = entry.expires else { return true }
        return ContinuousClock.now < expires
    }
}
