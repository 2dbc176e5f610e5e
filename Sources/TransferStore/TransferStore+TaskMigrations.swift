import GRDB

extension TransferStore {
    /// The task migrations after v1, registered by `migrator` after its own; append here, never edit.
    ///
    /// v1 already made the `task` table; v2 adds what the engine needs to pick a task up again after a
    /// restart, and keeps inline upload bodies out of the `task` rows that every list reads.
    static func registerTaskMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-task-transfer-state") { db in
            try db.alter(table: "task") { t in
                // The opaque `resumeData` a download was created from (`downloadTask(withResumeData:)`).
                t.add(column: "resumeData", .text)
                // The completion handler's signing secret, sealed with the store's SecretBox.
                t.add(column: "completionSecret", .blob)
                // URLSessionTaskMetrics of the finished task, JSON.
                t.add(column: "metrics", .jsonText)
            }
            // `uploadTask(with:from:)` bodies (up to 1 MiB): read once when the upload starts.
            try db.create(table: "taskUpload") { t in
                t.primaryKey("taskId", .text).references("task", column: "id", onDelete: .cascade)
                t.column("data", .blob).notNull()
            }
        }
        migrator.registerMigration("v3-task-body") { db in
            // Small response bodies of data and upload tasks: a row costs far less than a file per task.
            try db.create(table: "taskBody") { t in
                t.primaryKey("taskId", .text).references("task", column: "id", onDelete: .cascade)
                t.column("data", .blob).notNull()
            }
            // The file janitor's query, without reading every task.
            try db.execute(sql: "CREATE INDEX task_fileExpiresAt ON task(fileExpiresAt) WHERE fileExpiresAt IS NOT NULL")
        }
        migrator.registerMigration("v4-task-suspend-count") { db in
            // URLSessionTask's suspend count: a task is created suspended once, each `suspend()` adds one,
            // each `resume()` takes one away, and it runs at zero.
            try db.alter(table: "task") { t in t.add(column: "suspendCount", .integer).notNull().defaults(to: 1) }
            try db.execute(sql: "UPDATE task SET suspendCount = 0 WHERE state <> 'suspended'")
            // A session's tasks in one state (`?state=running`) without walking its finished ones.
            try db.create(index: "task_session_state", on: "task", columns: ["sessionId", "state", "rowid"])
        }
        migrator.registerMigration("v5-task-partial-file") { db in
            // A running download's partial file, checkpointed so a restart (even after kill -9) continues it.
            try db.alter(table: "task") { t in t.add(column: "partialPath", .text) }
        }
    }

    /// Registered after every other migration of v10 (GRDB applies them in registration order).
    static func registerSegmentMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11-task-segments") { db in
            // A segmented download's `segments` (JSON): the connections and part size it runs with.
            try db.alter(table: "task") { t in t.add(column: "segments", .jsonText) }
        }
        migrator.registerMigration("v12-task-websocket") { db in
            // A webSocket task's `protocols`, `maximumMessageSize`, `closeCode` and `closeReason` (JSON).
            try db.alter(table: "task") { t in t.add(column: "webSocket", .jsonText) }
        }
        migrator.registerMigration("v13-task-stream") { db in
            // A stream task's `hostName` and `port` (JSON).
            try db.alter(table: "task") { t in t.add(column: "stream", .jsonText) }
        }
        migrator.registerMigration("v14-cluster") { db in
            // The nodes sharing the database (one, on SQLite): each writes its heartbeat and load; a node
            // whose heartbeat is older than the lease time has lost its tasks to the others.
            try db.create(table: "node") { t in
                t.primaryKey("id", .text)
                t.column("startedAt", .datetime).notNull()
                t.column("heartbeatAt", .datetime).notNull()
                t.column("stoppedAt", .datetime)
                t.column("activeTasks", .integer).notNull().defaults(to: 0)
                t.column("maximumTransfers", .integer).notNull().defaults(to: 0)
            }
            // The node running the task's attempt: nil while a running task waits for a node to claim it.
            try db.alter(table: "task") { t in t.add(column: "node", .text) }
            try db.create(index: "task_node", on: "task", columns: ["node"])
            try db.create(
                index: "task_unclaimed", on: "task", columns: ["rowid"], condition: Column("state") == "running" && Column("node") == nil)
            // Named leases held by one node until they expire (a session's webhook lane: `delivery:<session>`).
            try db.create(table: "lease") { t in
                t.primaryKey("name", .text)
                t.column("node", .text).notNull()
                t.column("expiresAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v15-task-file-object") { db in
            // The key of a finished download's file in the object store (`URLSESSIOND_OBJECT_STORE_URL`),
            // once it was put there; `filePath` then names the local copy that was removed.
            try db.alter(table: "task") { t in t.add(column: "fileObject", .text) }
        }
        migrator.registerMigration("v16-blob-object") { db in
            // The key of a blob in the object store once it was put there; its local file is then removed.
            try db.alter(table: "blob") { t in t.add(column: "object", .text) }
        }
    }

    /// `v19-task-unclaimed-by-tenant`: on PostgreSQL the queued tasks by tenant, oldest first, so a claim
    /// finds each tenant's next tasks through an index instead of numbering the whole backlog
    /// (`PostgresMigrations.unclaimedByTenant`). SQLite has one node, which claims nothing: an index there
    /// would cost every task's writes and serve no read. Registered after every other migration (it came
    /// last).
    static func registerUnclaimedByTenantMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v19-task-unclaimed-by-tenant") { _ in }
        // PostgreSQL's usage rows became one per connection; SQLite has one writer and one row per tenant.
        migrator.registerMigration("v20-tenant-usage-per-connection") { _ in }
    }
}
