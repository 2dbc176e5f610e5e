/// The schema's history, one list for both backends: every migration in the order it shipped, each
/// written once in SQL (`StoreMigration`), applied by `StoreMigrator` on SQLite and on PostgreSQL alike.
/// Append here, never edit or reorder: a migration that has shipped is in databases' ledgers, and an
/// existing database runs only the identifiers it has not recorded. (The identifiers are historical: the
/// v3, v10 pairs are migrations of different areas written at the same version.)
///
/// Swift files rather than `.sql` resources: the types the dialects spell differently are interpolated
/// and checked by the compiler (`SchemaType`), the few statements one backend runs alone sit beside the
/// shared ones they belong to, and the binary carries its schema without a resource bundle to install
/// next to it.
enum StoreMigrations {
    static let all: [StoreMigration] = [
        sessionsTasksEventsBlobs,
        taskTransferState, taskBody, taskSuspendCount, taskPartialFile,
        webhookDelivery, sessionDelegateHeld,
        cookies, urlCache, credentials, idempotencyClaimOwner,
        tenantUsage,
        retention,
        taskSegments, taskWebSocket, taskStream, cluster, taskFileObject, blobObject,
        sessionDelegateHealth,
        tenantUsageShards,
        taskUnclaimedByTenant,
        tenantUsagePerConnection,
        taskRateLimit,
        taskSources,
        lz4Compression,
        uncheckedHotReferences,
    ]

    /// The first schema: sessions, their tasks and events (the webhook outbox), uploaded blobs, and the
    /// answers kept for `Idempotency-Key`.
    static let sessionsTasksEventsBlobs = StoreMigration(
        "v1-sessions-tasks-events-blobs",
        [
            .shared(
                """
                CREATE TABLE session (rowid \(.rowid), id TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL, kind TEXT NOT NULL,
                  identifier TEXT, isShared \(.boolean) NOT NULL DEFAULT 0, configuration TEXT NOT NULL, delegate TEXT,
                  delegateSecret \(.blob), sessionDescription TEXT, state TEXT NOT NULL,
                  lastSequence \(.integer) NOT NULL DEFAULT 0, lastTaskIdentifier \(.integer) NOT NULL DEFAULT 0,
                  createdAt \(.date) NOT NULL, invalidatedAt \(.date))
                """),
            .shared("CREATE INDEX session_tenant ON session(tenant, rowid)"),
            // One live background session per identifier and tenant: the re-attach key.
            .shared(
                """
                CREATE UNIQUE INDEX session_background_identifier ON session(tenant, identifier)
                WHERE identifier IS NOT NULL AND state <> 'invalidated'
                """),
            // A boolean column is a condition on SQLite, an integer to compare on PostgreSQL.
            .sqlite("CREATE UNIQUE INDEX session_shared ON session(tenant) WHERE isShared"),
            .postgres("CREATE UNIQUE INDEX session_shared ON session(tenant) WHERE isShared <> 0"),
            .shared(
                """
                CREATE TABLE task (rowid \(.rowid), id TEXT NOT NULL UNIQUE,
                  sessionId TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE, tenant TEXT NOT NULL,
                  taskIdentifier \(.integer) NOT NULL, kind TEXT NOT NULL, state TEXT NOT NULL, priority \(.real) NOT NULL,
                  taskDescription TEXT, earliestBeginDate \(.date), originalRequest TEXT NOT NULL, currentRequest TEXT,
                  response TEXT, countOfBytesSent \(.integer) NOT NULL DEFAULT 0,
                  countOfBytesExpectedToSend \(.integer) NOT NULL DEFAULT 0, countOfBytesReceived \(.integer) NOT NULL DEFAULT 0,
                  countOfBytesExpectedToReceive \(.integer) NOT NULL DEFAULT -1,
                  countOfBytesClientExpectsToSend \(.integer) NOT NULL DEFAULT -1,
                  countOfBytesClientExpectsToReceive \(.integer) NOT NULL DEFAULT -1, error TEXT, uploadSource TEXT,
                  completion TEXT, expectedDigest TEXT, filePath TEXT, fileExpiresAt \(.date), createdAt \(.date) NOT NULL,
                  startedAt \(.date), completedAt \(.date), UNIQUE (sessionId, taskIdentifier))
                """),
            .shared("CREATE INDEX task_session ON task(sessionId, rowid)"),
            .shared("CREATE INDEX task_state ON task(state)"),
            .shared(
                """
                CREATE TABLE event (rowid \(.rowid), id TEXT NOT NULL UNIQUE,
                  sessionId TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE, sequence \(.integer) NOT NULL,
                  taskId TEXT, type TEXT NOT NULL, timestamp \(.date) NOT NULL, data TEXT NOT NULL, deliveredAt \(.date),
                  deliveryAttempts \(.integer) NOT NULL DEFAULT 0, nextAttemptAt \(.date), UNIQUE (sessionId, sequence))
                """),
            .shared("CREATE INDEX event_task ON event(taskId, sequence)"),
            .shared(
                """
                CREATE TABLE blob (rowid \(.rowid), id TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL,
                  size \(.integer) NOT NULL, digest TEXT NOT NULL, createdAt \(.date) NOT NULL)
                """),
            .shared("CREATE INDEX blob_tenant ON blob(tenant, rowid)"),
            .shared(
                """
                CREATE TABLE idempotencyKey (tenant TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL,
                  status \(.integer), contentType TEXT, location TEXT, body \(.blob), createdAt \(.date) NOT NULL,
                  PRIMARY KEY (tenant, key))
                """),
            .shared("CREATE INDEX idempotencyKey_createdAt ON idempotencyKey(createdAt)"),
        ])

    /// The retention pass's indexes. Each is partial: it holds only the rows the pass looks for, so the
    /// writes that never make a row one of them (most of a running task's) do not pay for it.
    static let retention = StoreMigration(
        "v10-retention",
        [
            // Delivered events, oldest delivery first.
            .shared("CREATE INDEX event_deliveredAt ON event(deliveredAt) WHERE deliveredAt IS NOT NULL"),
            // Finished tasks, oldest completion first.
            .shared("CREATE INDEX task_completedAt ON task(completedAt) WHERE completedAt IS NOT NULL"),
            // Partial files kept for resume data, which expire with the task's files.
            .shared("CREATE INDEX task_partialPath ON task(completedAt) WHERE partialPath IS NOT NULL"),
            // Invalidated sessions, oldest first.
            .shared("CREATE INDEX session_invalidatedAt ON session(invalidatedAt) WHERE state = 'invalidated'"),
        ])
}
