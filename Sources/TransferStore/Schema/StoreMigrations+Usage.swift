extension StoreMigrations {
    /// `tenant_usage`: one row per tenant with what its quotas count, kept by triggers on the rows it
    /// counts. Every write — the API's, the engine's completions, the janitor's, a deletion cascading from
    /// a session — moves the counters in its own transaction, so they never drift from the rows (kill -9
    /// included), and a quota check inside a write transaction reads one row instead of scanning. The
    /// triggers are each backend's own (SQLite's below, PostgreSQL's plpgsql in `+UsagePostgres`).
    static let tenantUsage = StoreMigration(
        "v10-tenant-usage",
        [
            // What a finished task keeps on disk or in `taskBody`, written with its completion; it counts
            // while the task still has its file or body (`filePath` or `fileExpiresAt` set).
            .shared("ALTER TABLE task ADD COLUMN storedBytes \(.integer) NOT NULL DEFAULT 0"),
            .sqliteData(
                """
                UPDATE task SET storedBytes =
                  COALESCE((SELECT length(data) FROM taskBody WHERE taskId = task.id), countOfBytesReceived)
                WHERE \(kept("task"))
                """),
            .shared(
                """
                CREATE TABLE tenant_usage (tenant TEXT PRIMARY KEY NOT NULL, sessions \(.integer) NOT NULL DEFAULT 0,
                  tasks \(.integer) NOT NULL DEFAULT 0, blobBytes \(.integer) NOT NULL DEFAULT 0,
                  blobCount \(.integer) NOT NULL DEFAULT 0, storedBytes \(.integer) NOT NULL DEFAULT 0)
                """),
            // What was stored before the migration, counted once; the triggers count from then on.
            .sqliteData(
                """
                INSERT INTO tenant_usage (tenant, sessions, tasks, blobBytes, blobCount, storedBytes)
                SELECT tenant, SUM(s), SUM(t), SUM(bb), SUM(bc), SUM(sb) FROM (
                  SELECT tenant, \(liveSession("session")) AS s, 0 AS t, 0 AS bb, 0 AS bc, 0 AS sb FROM session
                  UNION ALL SELECT tenant, 0, \(unfinished("task")), 0, 0, \(storedBytes("task")) FROM task
                  UNION ALL SELECT tenant, 0, 0, size, 1, 0 FROM blob
                  UNION ALL SELECT \(cacheTenant("cache_entry")), 0, 0, 0, 0, bodySize FROM cache_entry
                ) WHERE tenant IS NOT NULL GROUP BY tenant
                """),
        ] + (sessionTriggers + taskTriggers + blobTriggers + cacheTriggers).map(StoreMigration.Step.sqlite)
            + tenantUsagePostgres.map(StoreMigration.Step.postgres))

    /// 1 for a session the `sessions` quota counts: not the shared one, not invalidated.
    private static func liveSession(_ row: String) -> String { "(NOT \(row).isShared AND \(row).state <> 'invalidated')" }
    private static func unfinished(_ row: String) -> String { "(\(row).state <> 'completed')" }
    private static func kept(_ row: String) -> String { "(\(row).filePath IS NOT NULL OR \(row).fileExpiresAt IS NOT NULL)" }
    private static func storedBytes(_ row: String) -> String { "(CASE WHEN \(kept(row)) THEN \(row).storedBytes ELSE 0 END)" }
    /// A cache row's tenant: named by a shared storage (`tenant <name>`), else its session's. NULL once the
    /// session is gone: its deletion already took the bytes away (`tenant_usage_session_delete`).
    private static func cacheTenant(_ row: String) -> String {
        "(CASE WHEN \(row).sessionId IS NULL THEN substr(\(row).storage, 8) ELSE (SELECT tenant FROM session WHERE id = \(row).sessionId) END)"
    }

    private static func ensureRow(_ tenant: String) -> String {
        "INSERT OR IGNORE INTO tenant_usage (tenant) SELECT tenant FROM (SELECT \(tenant) AS tenant) WHERE tenant IS NOT NULL;"
    }

    private static var sessionTriggers: [String] {
        [
            """
            CREATE TRIGGER tenant_usage_session_insert AFTER INSERT ON session WHEN \(liveSession("NEW")) BEGIN
              \(ensureRow("NEW.tenant"))
              UPDATE tenant_usage SET sessions = sessions + 1 WHERE tenant = NEW.tenant;
            END
            """,
            """
            CREATE TRIGGER tenant_usage_session_update AFTER UPDATE OF state, isShared ON session
            WHEN \(liveSession("OLD")) <> \(liveSession("NEW")) BEGIN
              \(ensureRow("NEW.tenant"))
              UPDATE tenant_usage SET sessions = sessions + \(liveSession("NEW")) - \(liveSession("OLD"))
              WHERE tenant = NEW.tenant;
            END
            """,
            // BEFORE: the session's private cache rows are still there to be summed (they cascade after).
            """
            CREATE TRIGGER tenant_usage_session_delete BEFORE DELETE ON session BEGIN
              UPDATE tenant_usage SET sessions = sessions - \(liveSession("OLD")),
                storedBytes = storedBytes - (SELECT COALESCE(SUM(bodySize), 0) FROM cache_entry WHERE sessionId = OLD.id)
              WHERE tenant = OLD.tenant;
            END
            """,
        ]
    }

    private static var taskTriggers: [String] {
        [
            """
            CREATE TRIGGER tenant_usage_task_insert AFTER INSERT ON task BEGIN
              \(ensureRow("NEW.tenant"))
              UPDATE tenant_usage SET tasks = tasks + \(unfinished("NEW")), storedBytes = storedBytes + \(storedBytes("NEW"))
              WHERE tenant = NEW.tenant;
            END
            """,
            """
            CREATE TRIGGER tenant_usage_task_update AFTER UPDATE OF state, filePath, fileExpiresAt, storedBytes ON task
            WHEN \(unfinished("OLD")) <> \(unfinished("NEW")) OR \(storedBytes("OLD")) <> \(storedBytes("NEW")) BEGIN
              \(ensureRow("NEW.tenant"))
              UPDATE tenant_usage SET tasks = tasks + \(unfinished("NEW")) - \(unfinished("OLD")),
                storedBytes = storedBytes + \(storedBytes("NEW")) - \(storedBytes("OLD"))
              WHERE tenant = NEW.tenant;
            END
            """,
            """
            CREATE TRIGGER tenant_usage_task_delete AFTER DELETE ON task BEGIN
              UPDATE tenant_usage SET tasks = tasks - \(unfinished("OLD")), storedBytes = storedBytes - \(storedBytes("OLD"))
              WHERE tenant = OLD.tenant;
            END
            """,
        ]
    }

    private static var blobTriggers: [String] {
        [
            """
            CREATE TRIGGER tenant_usage_blob_insert AFTER INSERT ON blob BEGIN
              \(ensureRow("NEW.tenant"))
              UPDATE tenant_usage SET blobCount = blobCount + 1, blobBytes = blobBytes + NEW.size WHERE tenant = NEW.tenant;
            END
            """,
            """
            CREATE TRIGGER tenant_usage_blob_delete AFTER DELETE ON blob BEGIN
              UPDATE tenant_usage SET blobCount = blobCount - 1, blobBytes = blobBytes - OLD.size WHERE tenant = OLD.tenant;
            END
            """,
        ]
    }

    private static var cacheTriggers: [String] {
        [
            """
            CREATE TRIGGER tenant_usage_cache_insert AFTER INSERT ON cache_entry BEGIN
              \(ensureRow(cacheTenant("NEW")))
              UPDATE tenant_usage SET storedBytes = storedBytes + NEW.bodySize WHERE tenant = \(cacheTenant("NEW"));
            END
            """,
            """
            CREATE TRIGGER tenant_usage_cache_update AFTER UPDATE OF bodySize ON cache_entry
            WHEN OLD.bodySize <> NEW.bodySize BEGIN
              UPDATE tenant_usage SET storedBytes = storedBytes + NEW.bodySize - OLD.bodySize WHERE tenant = \(cacheTenant("NEW"));
            END
            """,
            """
            CREATE TRIGGER tenant_usage_cache_delete AFTER DELETE ON cache_entry BEGIN
              UPDATE tenant_usage SET storedBytes = storedBytes - OLD.bodySize WHERE tenant = \(cacheTenant("OLD"));
            END
            """,
        ]
    }
}
