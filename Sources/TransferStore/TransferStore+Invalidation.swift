import Foundation
import GRDB
import JSONCodec
import TransferModels

extension TransferStore {
    /// `finishTasksAndInvalidate()` / `invalidateAndCancel()`: in one transaction, the session becomes
    /// `invalidated` at once when it has no unfinished task, otherwise `invalidating` until its last task
    /// completes (`completeTask` finishes the job). Returns the session and its unfinished task ids; nil
    /// for an unknown id. Repeating it is harmless.
    public func beginInvalidation(id: String, tenant: String) async throws -> (SessionRecord, unfinishedTaskIDs: [String])? {
        let result: (SessionRecord, [String])? = try await pool.write { db in
            guard var record = try SessionRecord.filter(Column("id") == id && Column("tenant") == tenant).fetchOne(db) else {
                return nil
            }
            let unfinished = try String.fetchAll(
                db, sql: "SELECT id FROM task WHERE sessionId = ? AND state <> 'completed' ORDER BY rowid", arguments: [id])
            guard record.state == .valid else { return (record, unfinished) }
            if unfinished.isEmpty {
                record.state = .invalidated
                record.invalidatedAt = .nowMilliseconds
                try Self.appendEvent(db, session: &record, taskId: nil, event: .sessionDidBecomeInvalid(error: nil))
            } else {
                record.state = .invalidating
            }
            try record.update(db)
            return (record, unfinished)
        }
        guard let (stored, unfinished) = result else { return nil }
        let record = try requestSecrets.opened(stored)  // updated as stored, its headers still sealed
        cache(record)
        if record.state == .invalidated { eventFeed.publish(record.id) }
        return (record, unfinishedTaskIDs: unfinished)
    }
}
