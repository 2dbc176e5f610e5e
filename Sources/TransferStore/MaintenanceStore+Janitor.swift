import Foundation
import TransferModels

/// What the start-up janitor asks before it removes a file: which files rows still name.
extension MaintenanceStore {
    /// Of the files named `names` under `<data>/downloads` (`<task id>`, `<task id>.<attempt>.part`,
    /// `<task id>.body`), those a task row still names: its finished download or kept body, its partial
    /// file (running, suspended, or kept for resume data), or the file of the resume data it was made from;
    /// and the journal of each such partial file (`<partial>.segments`, a segmented download's).
    /// Looked up by task id, so the cost follows the files on disk, not the tasks in the store.
    public func referencedDownloadFiles(among names: [String]) async throws -> Set<String> {
        var referenced = Set<String>()
        let byTask = Dictionary(grouping: names) { String($0.prefix { $0 != "." }) }
        let ids = byTask.keys.filter { ResourceID.isWellFormed($0, prefix: "tsk") }
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            let paths = try await database.read { db in
                try db.rows(
                    "SELECT filePath, partialPath FROM task WHERE id IN (\(StoreSQL.placeholders(chunk.count)))", chunk.map(\.storeValue)
                ).flatMap { row in try StoreSQL.paths(row) }
            }
            for path in paths { referenced.insert((path as NSString).lastPathComponent) }
        }
        // A task made from resume data continues the file its token names when it starts (moving it).
        let tokens = try await database.read { db in
            try db.rows("SELECT tenant, resumeData FROM task WHERE resumeData IS NOT NULL AND state <> 'completed'").map { row in
                (tenant: try row.decode(String.self, forColumn: "tenant"), token: try row.decode(String.self, forColumn: "resumeData"))
            }
        }
        for (tenant, token) in tokens {
            if let path = resumeDataTokens.resumeData(from: token, tenant: tenant)?.path {
                referenced.insert((path as NSString).lastPathComponent)
            }
        }
        let journals = names.filter { $0.hasSuffix(".segments") && referenced.contains(String($0.dropLast(".segments".count))) }
        return referenced.union(journals).intersection(names)
    }

    /// Every body file a URL cache row names (file names are random, unique across storages).
    public func cacheBodyFileNames() async throws -> Set<String> {
        Set(try await database.read { db in try db.values("SELECT bodyFile FROM cache_entry WHERE bodyFile IS NOT NULL", as: String.self) })
    }

    /// Of `ids`, the sessions that exist and are not invalidated (their private cache directories stay).
    public func liveSessionIDs(among ids: [String]) async throws -> Set<String> {
        var live = Set<String>()
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            live.formUnion(
                try await database.read { db in
                    try db.values(
                        "SELECT id FROM session WHERE id IN (\(StoreSQL.placeholders(chunk.count))) AND state <> 'invalidated'",
                        chunk.map(\.storeValue), as: String.self)
                })
        }
        return live
    }
}
