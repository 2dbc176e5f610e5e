import GRDB

extension TransferStore {
    /// Append-only schema history; never edit a migration that has shipped.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-sessions-tasks-events-blobs") { db in
            try db.create(table: "session") { t in
                t.primaryKey("rowid", .integer)
                t.column("id", .text).notNull().unique()
                t.column("tenant", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("identifier", .text)
                t.column("isShared", .boolean).notNull().defaults(to: false)
                t.column("configuration", .jsonText).notNull()
                t.column("delegate", .jsonText)
                t.column("delegateSecret", .blob)
                t.column("sessionDescription", .text)
                t.column("state", .text).notNull()
                t.column("lastSequence", .integer).notNull().defaults(to: 0)
                t.column("lastTaskIdentifier", .integer).notNull().defaults(to: 0)
                t.column("createdAt", .datetime).notNull()
                t.column("invalidatedAt", .datetime)
            }
            try db.create(index: "session_tenant", on: "session", columns: ["tenant", "rowid"])
            // One live background session per identifier and tenant: the re-attach key.
            try db.execute(
                sql: """
                    CREATE UNIQUE INDEX session_background_identifier ON session(tenant, identifier)
                    WHERE identifier IS NOT NULL AND state <> 'invalidated'
                    """)
            try db.execute(sql: "CREATE UNIQUE INDEX session_shared ON session(tenant) WHERE isShared")

            try db.create(table: "task") { t in
                t.primaryKey("rowid", .integer)
                t.column("id", .text).notNull().unique()
                t.column("sessionId", .text).notNull().references("session", column: "id", onDelete: .cascade)
                t.column("tenant", .text).notNull()
                t.column("taskIdentifier", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("state", .text).notNull()
                t.column("priority", .double).notNull()
                t.column("taskDescription", .text)
                t.column("earliestBeginDate", .datetime)
                t.column("originalRequest", .jsonText).notNull()
                t.column("currentRequest", .jsonText)
                t.column("response", .jsonText)
                t.column("countOfBytesSent", .integer).notNull().defaults(to: 0)
                t.column("countOfBytesExpectedToSend", .integer).notNull().defaults(to: 0)
                t.column("countOfBytesReceived", .integer).notNull().defaults(to: 0)
                t.column("countOfBytesExpectedToReceive", .integer).notNull().defaults(to: -1)
                t.column("countOfBytesClientExpectsToSend", .integer).notNull().defaults(to: -1)
                t.column("countOfBytesClientExpectsToReceive", .integer).notNull().defaults(to: -1)
                t.column("error", .jsonText)
                t.column("uploadSource", .jsonText)
                t.column("completion", .jsonText)
                t.column("expectedDigest", .text)
                t.column("filePath", .text)
                t.column("fileExpiresAt", .datetime)
                t.column("createdAt", .datetime).notNull()
                t.column("startedAt", .datetime)
                t.column("completedAt", .datetime)
                t.uniqueKey(["sessionId", "taskIdentifier"])
            }
            try db.create(index: "task_session", on: "task", columns: ["sessionId", "rowid"])
            try db.create(index: "task_state", on: "task", columns: ["state"])

            try db.create(table: "event") { t in
                t.primaryKey("rowid", .integer)
                t.column("id", .text).notNull().unique()
                t.column("sessionId", .text).notNull().references("session", column: "id", onDelete: .cascade)
                t.column("sequence", .integer).notNull()
                t.column("taskId", .text)
                t.column("type", .text).notNull()
                t.column("timestamp", .datetime).notNull()
                t.column("data", .jsonText).notNull()
                t.column("deliveredAt", .datetime)
                t.column("deliveryAttempts", .integer).notNull().defaults(to: 0)
                t.column("nextAttemptAt", .datetime)
                t.uniqueKey(["sessionId", "sequence"])
            }
            try db.create(index: "event_task", on: "event", columns: ["taskId", "sequence"])

            try db.create(table: "blob") { t in
                t.primaryKey("rowid", .integer)
                t.column("id", .text).notNull().unique()
                t.column("tenant", .text).notNull()
                t.column("size", .integer).notNull()
                t.column("digest", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "blob_tenant", on: "blob", columns: ["tenant", "rowid"])

            try db.create(table: "idempotencyKey") { t in
                t.column("tenant", .text).notNull()
                t.column("key", .text).notNull()
                t.column("fingerprint", .text).notNull()
                t.column("status", .integer)
                t.column("contentType", .text)
                t.column("location", .text)
                t.column("body", .blob)
                t.column("createdAt", .datetime).notNull()
                t.primaryKey(["tenant", "key"])
            }
            try db.create(index: "idempotencyKey_createdAt", on: "idempotencyKey", columns: ["createdAt"])
        }
        registerTaskMigrations(&migrator)
        registerDeliveryMigrations(&migrator)
        registerCookieMigrations(&migrator)
        registerURLCacheMigrations(&migrator)
        registerCredentialMigrations(&migrator)
        registerIdempotencyMigrations(&migrator)
        registerUsageMigrations(&migrator)
        registerRetentionMigrations(&migrator)
        registerSegmentMigrations(&migrator)
        registerDeliveryHealthMigrations(&migrator)
        registerUsageShardMigrations(&migrator)
        registerUnclaimedByTenantMigration(&migrator)
        return migrator
    }()
}
