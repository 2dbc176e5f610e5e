extension PostgresStoreDatabase {
    /// Brings the database to the current schema (`StoreMigrator`): the migrations not applied yet, in
    /// order, in one transaction (PostgreSQL's DDL is transactional: a failed migration leaves the schema
    /// as it was), under an advisory lock (nodes starting together wait for the first one). Returns the
    /// identifiers it applied.
    @discardableResult
    public func migrate() async throws -> [String] {
        try await writeWithoutDeadline { db in try StoreMigrator(dialect: .postgres).migrate(db) }
    }
}
