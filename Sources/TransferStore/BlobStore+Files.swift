public import Foundation
public import JSONCodec
import TransferModels

extension BlobStore {
    /// Forgets the files of up to `limit` completed tasks whose time-to-live has passed, and returns their
    /// paths for the caller to remove (the row stops pointing at a file first, so no reader is handed a
    /// vanishing one). Bodies kept in the store expire with them. Partial files kept for resume data go
    /// once their task completed before `partialsCompletedBefore`.
    ///
    /// The candidates are found on a reader; the write transaction only re-checks and clears those
    /// rows, so the writer is held for one small batch, never for a scan. `isLast`: none is left.
    public func takeExpiredFiles(
        now: Date = .nowMilliseconds, partialsCompletedBefore: Date? = nil, limit: Int = 250
    ) async throws -> PrunedBatch {
        let (expiring, stale): ([String], [String]) = try await database.read { db in
            // Served by the partial indexes `task_fileExpiresAt` and `task_partialPath`.
            let expiring = try db.values(
                "SELECT id FROM task WHERE fileExpiresAt IS NOT NULL AND fileExpiresAt < ? LIMIT ?", now, limit, as: String.self)
            guard let cutoff = partialsCompletedBefore else { return (expiring, []) }
            let stale = try db.values(
                "SELECT id FROM task WHERE partialPath IS NOT NULL AND completedAt < ? AND state = 'completed' LIMIT ?", cutoff, limit,
                as: String.self)
            return (expiring, stale)
        }
        guard !expiring.isEmpty || !stale.isEmpty else { return PrunedBatch(isLast: true) }
        var batch = PrunedBatch(isLast: expiring.count < limit && stale.count < limit)
        (batch.files, batch.objects) = try await housekeeping.write { db in
            var paths: [String] = []
            if let cutoff = partialsCompletedBefore, !stale.isEmpty {
                let condition =
                    "id IN (\(StoreSQL.placeholders(stale.count))) AND partialPath IS NOT NULL AND completedAt < ? AND state = 'completed'"
                let arguments = stale.map(\.storeValue) + [cutoff.storeValue]
                paths += try db.values("SELECT partialPath FROM task WHERE \(condition)", arguments, as: String.self)
                try db.execute("UPDATE task SET partialPath = NULL WHERE \(condition)", arguments)
            }
            guard !expiring.isEmpty else { return (paths, []) }
            let list = "id IN (\(StoreSQL.placeholders(expiring.count))) AND fileExpiresAt < ?"
            let arguments = expiring.map(\.storeValue) + [now.storeValue]
            let stored = "\(list) AND filePath IS NULL AND fileObject IS NULL"
            try db.execute("DELETE FROM taskBody WHERE taskId IN (SELECT id FROM task WHERE \(stored))", arguments)
            try db.execute("UPDATE task SET fileExpiresAt = NULL WHERE \(stored)", arguments)
            paths += try db.values("SELECT filePath FROM task WHERE \(list) AND filePath IS NOT NULL", arguments, as: String.self)
            let objects = try db.values("SELECT fileObject FROM task WHERE \(list) AND fileObject IS NOT NULL", arguments, as: String.self)
            try db.execute(
                "UPDATE task SET filePath = NULL, fileObject = NULL, fileExpiresAt = NULL WHERE \(list) AND (filePath IS NOT NULL OR fileObject IS NOT NULL)",
                arguments)
            return (paths, objects)
        }
        batch.rows = expiring.count + stale.count
        return batch
    }

    /// What `releaseFile` let go of.
    public enum ReleasedFile: Sendable, Equatable {
        /// A file on disk, for the caller to remove.
        case file(path: String)
        /// A body kept in the store (a small download), deleted with the row's pointer to it.
        case stored
        /// An object in the object store, for the caller to delete.
        case object(key: String)
    }

    /// The task no longer has a file (`DELETE /v1/tasks/{id}/file`); nil when it had none (any more).
    public func releaseFile(taskId: String, tenant: String) async throws -> ReleasedFile? {
        try await database.write { db in
            let query = "SELECT filePath, fileObject, fileExpiresAt FROM task WHERE id = ? AND tenant = ?"
            guard let row = try db.row(query, taskId, tenant) else { return nil }
            let path: String? = try row.decode(forColumn: "filePath")
            let object: String? = try row.decode(forColumn: "fileObject")
            let expires: String? = try row.decode(forColumn: "fileExpiresAt")
            try db.execute(
                "UPDATE task SET filePath = NULL, fileObject = NULL, fileExpiresAt = NULL WHERE id = ? AND tenant = ?", taskId, tenant)
            if let object { return .object(key: object) }
            if let path { return .file(path: path) }
            guard expires != nil else { return nil }
            try db.execute("DELETE FROM taskBody WHERE taskId = ?", taskId)
            return .stored
        }
    }

    /// `reset()`: the session's completed tasks no longer have files or kept bodies (nor partial files kept
    /// for resume data); returns the paths for the caller to remove, and the keys of the objects to delete.
    /// Running tasks keep theirs.
    public func releaseFiles(sessionId: String) async throws -> (paths: [String], objects: [String]) {
        try await database.write { db in
            let completed = "sessionId = ? AND state = 'completed'"
            let paths = try db.values("SELECT filePath FROM task WHERE \(completed) AND filePath IS NOT NULL", sessionId, as: String.self)
            let partials = try db.values(
                "SELECT partialPath FROM task WHERE \(completed) AND partialPath IS NOT NULL", sessionId, as: String.self)
            let objects = try db.values(
                "SELECT fileObject FROM task WHERE \(completed) AND fileObject IS NOT NULL", sessionId, as: String.self)
            try db.execute("DELETE FROM taskBody WHERE taskId IN (SELECT id FROM task WHERE \(completed))", sessionId)
            try db.execute(
                "UPDATE task SET filePath = NULL, fileObject = NULL, fileExpiresAt = NULL, partialPath = NULL WHERE \(completed)",
                sessionId)
            return (paths + partials, objects)
        }
    }
}
