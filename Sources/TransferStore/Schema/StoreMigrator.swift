import Foundation

/// Brings a database of either backend to the current schema: the migrations of `StoreMigrations.all`
/// its ledger (`SchemaDialect.ledger`) does not list yet, in order, each recorded there once applied.
///
/// It runs inside the one transaction its caller opens, so the pending migrations apply together or not
/// at all (both backends' DDL is transactional): a failure leaves the schema as it was. SQLite's foreign
/// keys stay on meanwhile (GRDB's migrator turned them off): no migration rebuilds a table; one that
/// must would turn them off before the transaction, as SQLite's recipe for a table rebuild says.
struct StoreMigrator {
    let dialect: SchemaDialect

    /// Applies what is pending and returns the identifiers it applied (none: the schema was current).
    @discardableResult
    func migrate(_ db: any StoreConnection) throws -> [String] {
        if let lock = dialect.migrationLock { try db.execute(lock) }
        try db.execute(dialect.createLedger)
        let applied = Set(try db.values("SELECT identifier FROM \(dialect.ledger)", as: String.self))
        var done: [String] = []
        for migration in StoreMigrations.all where !applied.contains(migration.identifier) {
            for statement in migration.statements(for: dialect) { try db.execute(statement) }
            try record(migration.identifier, db)
            done.append(migration.identifier)
        }
        return done
    }

    private func record(_ identifier: String, _ db: any StoreConnection) throws {
        switch dialect {
        case .sqlite: try db.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", identifier)
        case .postgres: try db.execute("INSERT INTO schema_migrations (identifier, appliedAt) VALUES (?, ?)", identifier, Date())
        }
    }
}
