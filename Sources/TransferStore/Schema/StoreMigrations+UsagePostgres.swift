extension StoreMigrations {
    /// `v10-tenant-usage` on PostgreSQL: the triggers that keep `tenant_usage` as SQLite's keep it (a live
    /// session, a task not completed, a blob, and the bytes a finished task or a cache entry keeps count
    /// for its tenant), in plpgsql, run after the table and column the two backends share.
    static let tenantUsagePostgres: [String] = [
        """
        CREATE FUNCTION tenant_usage_row(owner TEXT) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
          IF owner IS NOT NULL THEN INSERT INTO tenant_usage (tenant) VALUES (owner) ON CONFLICT DO NOTHING; END IF;
        END $$
        """,
        """
        CREATE FUNCTION tenant_usage_session() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE before BIGINT := 0; after BIGINT := 0;
        BEGIN
          IF TG_OP <> 'INSERT' THEN before := (OLD.isShared = 0 AND OLD.state <> 'invalidated')::int; END IF;
          IF TG_OP = 'DELETE' THEN
            -- Before the delete: the session's private cache rows are still there to be counted.
            UPDATE tenant_usage SET sessions = sessions - before,
              storedBytes = storedBytes - (SELECT COALESCE(SUM(bodySize), 0) FROM cache_entry WHERE sessionId = OLD.id)
            WHERE tenant = OLD.tenant;
            RETURN OLD;
          END IF;
          after := (NEW.isShared = 0 AND NEW.state <> 'invalidated')::int;
          IF after <> before THEN
            PERFORM tenant_usage_row(NEW.tenant);
            UPDATE tenant_usage SET sessions = sessions + after - before WHERE tenant = NEW.tenant;
          END IF;
          RETURN NEW;
        END $$
        """,
        """
        CREATE TRIGGER tenant_usage_session AFTER INSERT OR UPDATE OF state, isShared ON session
        FOR EACH ROW EXECUTE FUNCTION tenant_usage_session()
        """,
        """
        CREATE TRIGGER tenant_usage_session_delete BEFORE DELETE ON session
        FOR EACH ROW EXECUTE FUNCTION tenant_usage_session()
        """,
        """
        CREATE FUNCTION tenant_usage_task() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE open_before BIGINT := 0; open_after BIGINT := 0; kept_before BIGINT := 0; kept_after BIGINT := 0;
        BEGIN
          IF TG_OP <> 'INSERT' THEN
            open_before := (OLD.state <> 'completed')::int;
            kept_before := CASE WHEN OLD.filePath IS NOT NULL OR OLD.fileExpiresAt IS NOT NULL THEN OLD.storedBytes ELSE 0 END;
          END IF;
          IF TG_OP = 'DELETE' THEN
            UPDATE tenant_usage SET tasks = tasks - open_before, storedBytes = storedBytes - kept_before WHERE tenant = OLD.tenant;
            RETURN OLD;
          END IF;
          open_after := (NEW.state <> 'completed')::int;
          kept_after := CASE WHEN NEW.filePath IS NOT NULL OR NEW.fileExpiresAt IS NOT NULL THEN NEW.storedBytes ELSE 0 END;
          IF TG_OP = 'INSERT' OR open_after <> open_before OR kept_after <> kept_before THEN
            PERFORM tenant_usage_row(NEW.tenant);
            UPDATE tenant_usage SET tasks = tasks + open_after - open_before, storedBytes = storedBytes + kept_after - kept_before
            WHERE tenant = NEW.tenant;
          END IF;
          RETURN NEW;
        END $$
        """,
        """
        CREATE TRIGGER tenant_usage_task AFTER INSERT OR DELETE OR UPDATE OF state, filePath, fileExpiresAt, storedBytes ON task
        FOR EACH ROW EXECUTE FUNCTION tenant_usage_task()
        """,
        """
        CREATE FUNCTION tenant_usage_blob() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'DELETE' THEN
            UPDATE tenant_usage SET blobCount = blobCount - 1, blobBytes = blobBytes - OLD.size WHERE tenant = OLD.tenant;
            RETURN OLD;
          END IF;
          PERFORM tenant_usage_row(NEW.tenant);
          UPDATE tenant_usage SET blobCount = blobCount + 1, blobBytes = blobBytes + NEW.size WHERE tenant = NEW.tenant;
          RETURN NEW;
        END $$
        """,
        "CREATE TRIGGER tenant_usage_blob AFTER INSERT OR DELETE ON blob FOR EACH ROW EXECUTE FUNCTION tenant_usage_blob()",
        """
        CREATE FUNCTION tenant_usage_cache_owner(entry_storage TEXT, entry_session TEXT) RETURNS TEXT LANGUAGE sql STABLE AS $$
          SELECT CASE WHEN entry_session IS NULL THEN substr(entry_storage, 8)
            ELSE (SELECT tenant FROM session WHERE id = entry_session) END
        $$
        """,
        """
        CREATE FUNCTION tenant_usage_cache() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'DELETE' THEN
            UPDATE tenant_usage SET storedBytes = storedBytes - OLD.bodySize
            WHERE tenant = tenant_usage_cache_owner(OLD.storage, OLD.sessionId);
            RETURN OLD;
          END IF;
          IF TG_OP = 'INSERT' THEN
            PERFORM tenant_usage_row(tenant_usage_cache_owner(NEW.storage, NEW.sessionId));
            UPDATE tenant_usage SET storedBytes = storedBytes + NEW.bodySize
            WHERE tenant = tenant_usage_cache_owner(NEW.storage, NEW.sessionId);
          ELSIF OLD.bodySize <> NEW.bodySize THEN
            UPDATE tenant_usage SET storedBytes = storedBytes + NEW.bodySize - OLD.bodySize
            WHERE tenant = tenant_usage_cache_owner(NEW.storage, NEW.sessionId);
          END IF;
          RETURN NEW;
        END $$
        """,
        """
        CREATE TRIGGER tenant_usage_cache AFTER INSERT OR DELETE OR UPDATE OF bodySize ON cache_entry
        FOR EACH ROW EXECUTE FUNCTION tenant_usage_cache()
        """,
    ]

    /// Usage without a hot row, on PostgreSQL, where several nodes write one tenant's rows: each tenant's
    /// figures are up to 16 rows, one per shard (the writing backend's process id modulo 16, so each
    /// connection of each node mostly writes its own), summed when read (`TransferStore.usage`). A write
    /// adds its differences to its shard with one upsert (`tenant_usage_add`); a shard may go negative (a
    /// task created through one connection and completed through another), the sum stays exact. The task
    /// trigger runs once per statement, over its transition tables, instead of once per row: a batch of a
    /// hundred creations or completions moves the usage with one upsert per tenant. SQLite has one writer,
    /// so nothing queues: its one row per tenant is already what the sums read, and nothing changes there.
    static let tenantUsageShards = StoreMigration(
        "v18-tenant-usage-shards", tenantUsageShardsPostgres.map(StoreMigration.Step.postgres))

    private static let tenantUsageShardsPostgres: [String] = [
        "ALTER TABLE tenant_usage ADD COLUMN shard BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE tenant_usage DROP CONSTRAINT tenant_usage_pkey",
        "ALTER TABLE tenant_usage ADD PRIMARY KEY (tenant, shard)",
        """
        CREATE FUNCTION tenant_usage_add(
          owner TEXT, d_sessions BIGINT, d_tasks BIGINT, d_blob_bytes BIGINT, d_blob_count BIGINT, d_stored BIGINT
        ) RETURNS void LANGUAGE sql AS $$
          INSERT INTO tenant_usage AS t (tenant, shard, sessions, tasks, blobBytes, blobCount, storedBytes)
          SELECT owner, pg_backend_pid() % 16, d_sessions, d_tasks, d_blob_bytes, d_blob_count, d_stored WHERE owner IS NOT NULL
          ON CONFLICT (tenant, shard) DO UPDATE SET sessions = t.sessions + excluded.sessions, tasks = t.tasks + excluded.tasks,
            blobBytes = t.blobBytes + excluded.blobBytes, blobCount = t.blobCount + excluded.blobCount,
            storedBytes = t.storedBytes + excluded.storedBytes
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION tenant_usage_session() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE before BIGINT := 0; after BIGINT := 0;
        BEGIN
          IF TG_OP <> 'INSERT' THEN before := (OLD.isShared = 0 AND OLD.state <> 'invalidated')::int; END IF;
          IF TG_OP = 'DELETE' THEN
            -- Before the delete: the session's private cache rows are still there to be counted.
            PERFORM tenant_usage_add(OLD.tenant, -before, 0, 0, 0,
              -(SELECT COALESCE(SUM(bodySize), 0) FROM cache_entry WHERE sessionId = OLD.id)::bigint);
            RETURN OLD;
          END IF;
          after := (NEW.isShared = 0 AND NEW.state <> 'invalidated')::int;
          IF after <> before THEN PERFORM tenant_usage_add(NEW.tenant, after - before, 0, 0, 0, 0); END IF;
          RETURN NEW;
        END $$
        """,
        "DROP TRIGGER tenant_usage_task ON task",
        "DROP FUNCTION tenant_usage_task()",
        """
        CREATE FUNCTION tenant_usage_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'INSERT' THEN
            PERFORM tenant_usage_add(tenant, 0, SUM(open)::bigint, 0, 0, SUM(kept)::bigint) FROM (
              SELECT tenant, (state <> 'completed')::int AS open,
                CASE WHEN filePath IS NOT NULL OR fileExpiresAt IS NOT NULL THEN storedBytes ELSE 0 END AS kept
              FROM new_rows) d GROUP BY tenant;
          ELSIF TG_OP = 'UPDATE' THEN
            PERFORM tenant_usage_add(tenant, 0, SUM(open)::bigint, 0, 0, SUM(kept)::bigint) FROM (
              SELECT n.tenant, (n.state <> 'completed')::int - (o.state <> 'completed')::int AS open,
                CASE WHEN n.filePath IS NOT NULL OR n.fileExpiresAt IS NOT NULL THEN n.storedBytes ELSE 0 END
                - CASE WHEN o.filePath IS NOT NULL OR o.fileExpiresAt IS NOT NULL THEN o.storedBytes ELSE 0 END AS kept
              FROM new_rows n JOIN old_rows o ON o.rowid = n.rowid) d
            GROUP BY tenant HAVING SUM(open) <> 0 OR SUM(kept) <> 0;
          ELSE
            PERFORM tenant_usage_add(tenant, 0, -SUM(open)::bigint, 0, 0, -SUM(kept)::bigint) FROM (
              SELECT tenant, (state <> 'completed')::int AS open,
                CASE WHEN filePath IS NOT NULL OR fileExpiresAt IS NOT NULL THEN storedBytes ELSE 0 END AS kept
              FROM old_rows) d GROUP BY tenant;
          END IF;
          RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER tenant_usage_task_insert AFTER INSERT ON task REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION tenant_usage_tasks()
        """,
        """
        CREATE TRIGGER tenant_usage_task_update AFTER UPDATE ON task REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION tenant_usage_tasks()
        """,
        """
        CREATE TRIGGER tenant_usage_task_delete AFTER DELETE ON task REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION tenant_usage_tasks()
        """,
        """
        CREATE OR REPLACE FUNCTION tenant_usage_blob() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'DELETE' THEN
            PERFORM tenant_usage_add(OLD.tenant, 0, 0, -OLD.size, -1, 0);
            RETURN OLD;
          END IF;
          PERFORM tenant_usage_add(NEW.tenant, 0, 0, NEW.size, 1, 0);
          RETURN NEW;
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION tenant_usage_cache() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'DELETE' THEN
            PERFORM tenant_usage_add(tenant_usage_cache_owner(OLD.storage, OLD.sessionId), 0, 0, 0, 0, -OLD.bodySize);
            RETURN OLD;
          END IF;
          IF TG_OP = 'INSERT' THEN
            PERFORM tenant_usage_add(tenant_usage_cache_owner(NEW.storage, NEW.sessionId), 0, 0, 0, 0, NEW.bodySize);
          ELSIF OLD.bodySize <> NEW.bodySize THEN
            PERFORM tenant_usage_add(tenant_usage_cache_owner(NEW.storage, NEW.sessionId), 0, 0, 0, 0, NEW.bodySize - OLD.bodySize);
          END IF;
          RETURN NEW;
        END $$
        """,
        "DROP FUNCTION tenant_usage_row(TEXT)",
    ]

    /// `v20-tenant-usage-per-connection`, PostgreSQL: each connection adds to a usage row of its own (its
    /// backend's process id, unique among the live ones), so no two connections ever wait for one usage
    /// row: a transaction may then take its usage before a session's row (a report batch locks its tasks,
    /// moves the usage by trigger, and locks the sessions last, for their sequences) without a deadlock
    /// against one that takes a session first (a creation). With `% 16` two connections could share a
    /// shard and wait for each other through it. Rows of closed connections are folded into shard 0
    /// (`TransferStore.foldUsageOfClosedConnections`). SQLite has one writer and one row per tenant.
    static let tenantUsagePerConnection = StoreMigration(
        "v20-tenant-usage-per-connection",
        [
            .postgres(
                """
                CREATE OR REPLACE FUNCTION tenant_usage_add(
                  owner TEXT, d_sessions BIGINT, d_tasks BIGINT, d_blob_bytes BIGINT, d_blob_count BIGINT, d_stored BIGINT
                ) RETURNS void LANGUAGE sql AS $$
                  INSERT INTO tenant_usage AS t (tenant, shard, sessions, tasks, blobBytes, blobCount, storedBytes)
                  SELECT owner, pg_backend_pid(), d_sessions, d_tasks, d_blob_bytes, d_blob_count, d_stored WHERE owner IS NOT NULL
                  ON CONFLICT (tenant, shard) DO UPDATE SET sessions = t.sessions + excluded.sessions, tasks = t.tasks + excluded.tasks,
                    blobBytes = t.blobBytes + excluded.blobBytes, blobCount = t.blobCount + excluded.blobCount,
                    storedBytes = t.storedBytes + excluded.storedBytes
                $$
                """)
        ])
}
