import GRDB

extension TransferStore {
    /// The retention pass's indexes, registered by `migrator` last; append here, never edit.
    ///
    /// Each is partial: it holds only the rows the pass looks for, so the writes that never make a row
    /// one of them (most of a running task's) do not pay for it.
    static func registerRetentionMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10-retention") { db in
            // Delivered events, oldest delivery first.
            try db.execute(sql: "CREATE INDEX event_deliveredAt ON event(deliveredAt) WHERE deliveredAt IS NOT NULL")
            // Finished tasks, oldest completion first.
            try db.execute(sql: "CREATE INDEX task_completedAt ON task(completedAt) WHERE completedAt IS NOT NULL")
            // Partial files kept for resume data, which expire with the task's files.
            try db.execute(sql: "CREATE INDEX task_partialPath ON task(completedAt) WHERE partialPath IS NOT NULL")
            // Invalidated sessions, oldest first.
            try db.execute(sql: "CREATE INDEX session_invalidatedAt ON session(invalidatedAt) WHERE state = 'invalidated'")
        }
    }
}
