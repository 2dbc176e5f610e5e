import GRDB
import Logging

/// Checkpoints off the writer. In WAL mode every commit appends pages to the WAL, and a checkpoint
/// copies them back into the database file. SQLite's automatic checkpoint runs inside the commit that
/// crosses its threshold, so one task's write waited for megabytes to be copied and fsynced (and the
/// housekeeping's checkpoint after a vacuum held the writer the same way). A passive checkpoint needs no
/// write lock: run on a connection of its own, writers go on while it copies.
extension MaintenanceStore {
    /// Passive checkpoints every `interval` until cancelled (the service runs this for its lifetime).
    /// One with nothing to copy costs a look at the WAL index. On PostgreSQL it returns at once.
    public func runCheckpoints(every interval: Duration = .milliseconds(250)) async {
        guard let sqlite else { return }
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            // A stop cancels the sleep: no checkpoint then (GRDB refuses it with CancellationError, which
            // every clean stop logged as a failure); closing the store checkpoints last.
            guard !Task.isCancelled else { break }
            do {
                _ = try await checkpointPassively(sqlite)
            } catch is CancellationError {
                break
            } catch {
                logger.warning("A WAL checkpoint failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Copies what the WAL holds back into the database file, as far as readers' snapshots allow, on the
    /// checkpointer's connection.
    func checkpointPassively(_ sqlite: SQLiteFile) async throws -> (walFrameCount: Int, checkpointedFrameCount: Int) {
        try await sqlite.checkpointer.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }
}
