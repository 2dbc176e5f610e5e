import Foundation
import JSONCodec
public import TransferModels

extension SessionStore {
    /// `finishTasksAndInvalidate()` / `invalidateAndCancel()`: in one transaction, the session becomes
    /// `invalidated` at once when it has no unfinished task, otherwise `invalidating` until its last task
    /// completes (`completeTask` finishes the job). Returns the session and its unfinished task ids; nil
    /// for an unknown id. Repeating it is harmless.
    public func beginInvalidation(id: String, tenant: String) async throws -> (SessionRecord, unfinishedTaskIDs: [String])? {
        let result: (SessionRecord, [String])? = try await database.write { db in
            guard
                var record = try db.row("SELECT * FROM session WHERE id = ? AND tenant = ?" + db.forUpdate, id, tenant)?.decode(
                    SessionRecord.self)
            else { return nil }
            let unfinished = try db.values(
                "SELECT id FROM task WHERE sessionId = ? AND state <> 'completed' ORDER BY rowid", id, as: String.self)
            guard record.state == .valid else { return (record, unfinished) }
            if unfinished.isEmpty {
                record.state = .invalidated
                record.invalidatedAt = .nowMilliseconds
                try EventLog.appendEvent(db, session: &record, taskId: nil, event: .sessionDidBecomeInvalid(error: nil))
            } else {
                record.state = .invalidating
            }
            try db.update(record, in: "session", key: "id")
            db.notify(.sessions, record.id)
            return (record, unfinished)
        }
        guard let (stored, unfinished) = result else { return nil }
        let record = try requestSecrets.opened(stored)  // updated as stored, its headers still sealed
        cache(record)
        if record.state == .invalidated { events.eventFeed.publish(record.id) }
        return (record, unfinishedTaskIDs: unfinished)
    }
}
