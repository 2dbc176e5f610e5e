@testable import TransferStore

/// A database's schema as lines both backends can be compared by: its tables' columns (position, name,
/// type class, not null, default), primary keys, unique constraints, foreign keys and the indexes made
/// by name, all in lower case (PostgreSQL folds unquoted names). Types are classes (`integer` for
/// SQLite's INTEGER and BOOLEAN and PostgreSQL's BIGINT, `real`, `text` for TEXT and DATETIME, `blob`);
/// a primary key column counts as not null (SQLite's `rowid` is, PostgreSQL makes every one so). Triggers
/// are left out: each backend has its own (their effect is tested in `tenant_usage`'s tests). The
/// migration ledgers are left out too.
enum SchemaDescription {
    static func sqlite(_ db: any StoreConnection) throws -> [String] {
        let tables = "m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'grdb_migrations'"
        let queries = [
            """
            SELECT lower(m.name) || '.' || (c.cid + 1) || ' ' || lower(c.name) || ' '
              || CASE upper(c.type) WHEN 'INTEGER' THEN 'integer' WHEN 'BOOLEAN' THEN 'integer' WHEN 'DOUBLE' THEN 'real'
                   WHEN 'TEXT' THEN 'text' WHEN 'DATETIME' THEN 'text' WHEN 'BLOB' THEN 'blob' ELSE 'unknown ' || c.type END
              || CASE WHEN c."notnull" OR c.pk > 0 THEN ' not null' ELSE '' END || COALESCE(' default ' || c.dflt_value, '')
            FROM sqlite_master m, pragma_table_info(m.name) c WHERE \(tables)
            """,
            """
            SELECT lower(m.name) || ' primary key (' || (
              SELECT group_concat(name, ', ') FROM (SELECT lower(c.name) AS name FROM pragma_table_info(m.name) c
              WHERE c.pk > 0 ORDER BY c.pk)) || ')'
            FROM sqlite_master m WHERE \(tables) AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.pk > 0)
            """,
            """
            SELECT lower(m.name) || CASE i.origin WHEN 'u' THEN ' unique (' ELSE ' index ' || lower(i.name) || ' (' END || (
              SELECT group_concat(name, ', ') FROM (SELECT lower(COALESCE(k.name, 'rowid')) AS name
              FROM pragma_index_info(i.name) k ORDER BY k.seqno)) || ')'
              || CASE WHEN i.origin = 'c' AND i."unique" THEN ' unique' ELSE '' END || CASE WHEN i.partial THEN ' partial' ELSE '' END
            FROM sqlite_master m, pragma_index_list(m.name) i WHERE \(tables) AND i.origin <> 'pk'
            """,
            """
            SELECT lower(m.name) || ' foreign key (' || group_concat(lower(f."from"), ', ') || ') references '
              || lower(f."table") || ' (' || group_concat(lower(f."to"), ', ') || ') on delete ' || lower(f.on_delete)
            FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE \(tables) GROUP BY m.name, f.id
            """,
        ]
        return try queries.flatMap { try db.values($0, as: String.self) }.sorted()
    }

    static func postgres(_ db: any StoreConnection) throws -> [String] {
        let constraintColumns = { (keys: String, table: String) in
            """
            (SELECT string_agg(lower(a.attname), ', ' ORDER BY k.ord) FROM unnest(c.\(keys)) WITH ORDINALITY AS k(num, ord)
             JOIN pg_attribute a ON a.attrelid = c.\(table) AND a.attnum = k.num)
            """
        }
        let queries = [
            """
            SELECT lower(table_name) || '.' || ordinal_position || ' ' || lower(column_name) || ' '
              || CASE data_type WHEN 'bigint' THEN 'integer' WHEN 'double precision' THEN 'real' WHEN 'text' THEN 'text'
                   WHEN 'bytea' THEN 'blob' ELSE 'unknown ' || data_type END
              || CASE WHEN is_nullable = 'NO' THEN ' not null' ELSE '' END
              || COALESCE(' default ' || trim(both '''' from split_part(column_default, '::', 1)), '')
            FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
            """,
            """
            SELECT lower(c.conrelid::regclass::text)
              || CASE c.contype WHEN 'p' THEN ' primary key (' WHEN 'u' THEN ' unique (' ELSE ' foreign key (' END
              || \(constraintColumns("conkey", "conrelid")) || ')'
              || CASE WHEN c.contype = 'f' THEN ' references ' || lower(c.confrelid::regclass::text) || ' ('
                   || \(constraintColumns("confkey", "confrelid")) || ') on delete '
                   || CASE c.confdeltype WHEN 'c' THEN 'cascade' WHEN 'a' THEN 'no action' ELSE c.confdeltype::text END
                 ELSE '' END
            FROM pg_constraint c
            WHERE c.connamespace = 'public'::regnamespace AND c.contype IN ('p', 'u', 'f')
              AND c.conrelid <> 'schema_migrations'::regclass
            """,
            """
            SELECT lower(t.relname) || ' index ' || lower(x.relname) || ' ('
              || (SELECT string_agg(lower(pg_get_indexdef(i.indexrelid, k, true)), ', ' ORDER BY k)
                  FROM generate_series(1, i.indnatts) AS k) || ')'
              || CASE WHEN i.indisunique THEN ' unique' ELSE '' END || CASE WHEN i.indpred IS NOT NULL THEN ' partial' ELSE '' END
            FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
            WHERE t.relnamespace = 'public'::regnamespace AND t.relname <> 'schema_migrations'
              AND NOT EXISTS (
                SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid AND c.contype IN ('p', 'u'))
            """,
        ]
        return try queries.flatMap { try db.values($0, as: String.self) }.sorted()
    }
}
