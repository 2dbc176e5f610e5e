import GRDB

extension TransferStore {
    /// The owner of an unanswered claim (`claim`), added after the first release: rows from before it
    /// have none, and are taken over like those of a process that died.
    static func registerIdempotencyMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10-idempotency-claim-owner") { db in
            try db.alter(table: "idempotencyKey") { t in t.add(column: "claim", .text) }
        }
    }
}
