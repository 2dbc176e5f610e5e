extension StoreMigrations {
    /// What the engine needs to pick a task up again after a restart, with inline upload bodies kept out
    /// of the `task` rows that every list reads.
    static let taskTransferState = StoreMigration(
        "v2-task-transfer-state",
        [
            // The opaque `resumeData` a download was created from (`downloadTask(withResumeData:)`).
            .shared("ALTER TABLE task ADD COLUMN resumeData TEXT"),
            // The completion handler's signing secret, sealed with the store's SecretBox.
            .shared("ALTER TABLE task ADD COLUMN completionSecret \(.blob)"),
            // URLSessionTaskMetrics of the finished task, JSON.
            .shared("ALTER TABLE task ADD COLUMN metrics TEXT"),
            // `uploadTask(with:from:)` bodies (up to 1 MiB): read once when the upload starts.
            .shared(
                """
                CREATE TABLE taskUpload (taskId TEXT PRIMARY KEY NOT NULL REFERENCES task(id) ON DELETE CASCADE,
                  data \(.blob) NOT NULL)
                """),
        ])

    static let taskBody = StoreMigration(
        "v3-task-body",
        [
            // Small response bodies of data and upload tasks: a row costs far less than a file per task.
            .shared(
                """
                CREATE TABLE taskBody (taskId TEXT PRIMARY KEY NOT NULL REFERENCES task(id) ON DELETE CASCADE,
                  data \(.blob) NOT NULL)
                """),
            // The file janitor's query, without reading every task.
            .shared("CREATE INDEX task_fileExpiresAt ON task(fileExpiresAt) WHERE fileExpiresAt IS NOT NULL"),
        ])

    /// URLSessionTask's suspend count: a task is created suspended once, each `suspend()` adds one, each
    /// `resume()` takes one away, and it runs at zero.
    static let taskSuspendCount = StoreMigration(
        "v4-task-suspend-count",
        [
            .shared("ALTER TABLE task ADD COLUMN suspendCount \(.integer) NOT NULL DEFAULT 1"),
            .sqliteData("UPDATE task SET suspendCount = 0 WHERE state <> 'suspended'"),
            // A session's tasks in one state (`?state=running`) without walking its finished ones.
            .shared("CREATE INDEX task_session_state ON task(sessionId, state, rowid)"),
        ])

    /// A running download's partial file, checkpointed so a restart (even after kill -9) continues it.
    static let taskPartialFile = StoreMigration(
        "v5-task-partial-file", [.shared("ALTER TABLE task ADD COLUMN partialPath TEXT")])

    /// A segmented download's `segments` (JSON): the connections and part size it runs with.
    static let taskSegments = StoreMigration(
        "v11-task-segments", [.shared("ALTER TABLE task ADD COLUMN segments TEXT")])

    /// A webSocket task's `protocols`, `maximumMessageSize`, `closeCode` and `closeReason` (JSON).
    static let taskWebSocket = StoreMigration(
        "v12-task-websocket", [.shared("ALTER TABLE task ADD COLUMN webSocket TEXT")])

    /// A task's own bandwidth limit, `rateLimit` (JSON), changed by `PATCH /v1/tasks/{id}`.
    static let taskRateLimit = StoreMigration(
        "v21-task-rate-limit", [.shared("ALTER TABLE task ADD COLUMN rateLimit TEXT")])

    /// A stream task's `hostName` and `port` (JSON).
    static let taskStream = StoreMigration(
        "v13-task-stream", [.shared("ALTER TABLE task ADD COLUMN stream TEXT")])

    /// A download's `mirrors`, `expectedLength`, piece hashes and `metalink` (JSON: `TransferSources`).
    static let taskSources = StoreMigration(
        "v22-task-sources", [.shared("ALTER TABLE task ADD COLUMN sources TEXT")])

    /// The nodes sharing the database (one, on SQLite): each writes its heartbeat and load; a node whose
    /// heartbeat is older than the lease time has lost its tasks to the others.
    static let cluster = StoreMigration(
        "v14-cluster",
        [
            .shared(
                """
                CREATE TABLE node (id TEXT PRIMARY KEY NOT NULL, startedAt \(.date) NOT NULL, heartbeatAt \(.date) NOT NULL,
                  stoppedAt \(.date), activeTasks \(.integer) NOT NULL DEFAULT 0, maximumTransfers \(.integer) NOT NULL DEFAULT 0)
                """),
            // The node running the task's attempt: nil while a running task waits for a node to claim it.
            .shared("ALTER TABLE task ADD COLUMN node TEXT"),
            .shared("CREATE INDEX task_node ON task(node)"),
            .shared("CREATE INDEX task_unclaimed ON task(rowid) WHERE (state = 'running') AND (node IS NULL)"),
            // Named leases held by one node until they expire (a session's webhook lane: `delivery:<session>`).
            .shared("CREATE TABLE lease (name TEXT PRIMARY KEY NOT NULL, node TEXT NOT NULL, expiresAt \(.date) NOT NULL)"),
        ])

    /// The key of a finished download's file in the object store (`URLSESSIOND_OBJECT_STORE_URL`), once
    /// it was put there; `filePath` then names the local copy that was removed.
    static let taskFileObject = StoreMigration(
        "v15-task-file-object", [.shared("ALTER TABLE task ADD COLUMN fileObject TEXT")])

    /// The key of a blob in the object store once it was put there; its local file is then removed.
    static let blobObject = StoreMigration(
        "v16-blob-object", [.shared("ALTER TABLE blob ADD COLUMN object TEXT")])

    /// On PostgreSQL the queued tasks by tenant, oldest first, so a claim finds each tenant's next tasks
    /// through an index instead of numbering the whole backlog (`TransferStore.claimQueuedTasks`). SQLite
    /// has one node, which claims nothing: an index there would cost every task's writes and serve no read.
    static let taskUnclaimedByTenant = StoreMigration(
        "v19-task-unclaimed-by-tenant",
        [.postgres("CREATE INDEX task_unclaimed_tenant ON task(tenant, rowid) WHERE state = 'running' AND node IS NULL")])

    /// On PostgreSQL the values that outgrow a page's share (a completed task's row with its metrics, a
    /// `didFinishCollectingMetrics` event, kept bodies and cached responses: about 2 KB and up) are
    /// compressed with lz4 instead of the default pglz. In a run of small tasks `pglz_compress` was a tenth
    /// of PostgreSQL's CPU (`perf`, `cluster.sh` pg1), and every event the webhook dispatcher reads back is
    /// decompressed; lz4 does both several times faster. Only values written from here on change (the
    /// column's setting applies to new values; old ones stay readable as they are). A server built
    /// without lz4 (its `default_toast_compression` does not list it) keeps pglz. SQLite compresses nothing.
    static let lz4Compression = StoreMigration(
        "v23-lz4-compression",
        [
            .postgres(
                """
                DO $$
                DECLARE
                  big record;
                BEGIN
                  IF NOT EXISTS (SELECT FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) THEN
                    RETURN;
                  END IF;
                  FOR big IN SELECT table_name, column_name FROM information_schema.columns
                    WHERE table_schema = current_schema() AND data_type IN ('text', 'bytea')
                      AND table_name IN ('task', 'event', 'taskbody', 'taskupload', 'cache_entry', 'cache_body', 'idempotencykey')
                  LOOP
                    EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET COMPRESSION lz4', big.table_name, big.column_name);
                  END LOOP;
                END
                $$
                """)
        ])

    /// On PostgreSQL the three rows written for every task — the task, its events, its kept body — no
    /// longer check their foreign keys. Each check is a query of the parent that also locks it (`FOR KEY
    /// SHARE`): 5–12 µs a row (`auto_explain.log_triggers`), about an eighth of PostgreSQL's work for a
    /// small task, and on a session's row, which the nodes writing its events update as well, a shared lock
    /// beside their updates (a MultiXact each time). The checks proved nothing the writes do not already
    /// ensure: a task or an event is inserted only in a transaction that has updated its session's row
    /// (the identifiers and sequences it takes, `BatchWrites.reserveSequences`, `TaskStore.create`), so
    /// the session exists and is held to the commit; a body is kept only with its task's completion, in
    /// the transaction that updates the task. What the cascades did is done by the one deleter, retention:
    /// it deletes a task's events and body before the task, and a session once its tasks and events are
    /// gone (`MaintenanceStore+Retention`). The session's small storages (cookies, cache, credentials)
    /// keep their cascades. SQLite keeps every key: its checks are index probes without locks.
    static let uncheckedHotReferences = StoreMigration(
        "v24-unchecked-hot-references",
        [
            .postgres("ALTER TABLE task DROP CONSTRAINT task_sessionid_fkey"),
            .postgres("ALTER TABLE event DROP CONSTRAINT event_sessionid_fkey"),
            .postgres("ALTER TABLE taskBody DROP CONSTRAINT taskbody_taskid_fkey"),
        ])
}
