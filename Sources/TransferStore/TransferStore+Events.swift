import Foundation
import GRDB
import TransferModels

extension TransferStore {
    /// Appends an event inside the caller's transaction with the session's next `sequence`.
    ///
    /// The sequence is taken from the session row in the same transaction, so sequences never have gaps
    /// or duplicates, whatever crashes around them.
    static func appendEvent(
        _ db: Database, session: inout SessionRecord, taskId: String?, type: TaskEventType, data: String
    ) throws {
        session.lastSequence = try reserveSequences(db, sessionId: session.id, count: 1).0
        try insertEvent(db, sessionId: session.id, sequence: session.lastSequence, taskId: taskId, type: type, data: data)
    }

    /// Events of a session with `sequence > after`, oldest first.
    public func events(sessionId: String, after: Int64, limit: Int) async throws -> [EventRecord] {
        try await pool.read { db in
            try EventRecord
                .filter(Column("sessionId") == sessionId && Column("sequence") > after)
                .order(Column("sequence"))
                .limit(limit)
                .fetchAll(db)
        }
    }
}
