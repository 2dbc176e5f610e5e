import Foundation
import GRDB
import TransferModels

extension TransferStore {
    /// Records a blob whose file is already in place.
    public func insertBlob(_ blob: BlobRecord) async throws -> BlobRecord {
        try await pool.write { db in
            var blob = blob
            try blob.insert(db)
            return blob
        }
    }

    public func blob(id: String, tenant: String) async throws -> BlobRecord? {
        guard ResourceID.isWellFormed(id, prefix: "blb") else { return nil }
        return try await pool.read { db in
            try BlobRecord.filter(Column("id") == id && Column("tenant") == tenant).fetchOne(db)
        }
    }

    /// Deletes the row and returns it (the caller removes the file); nil when unknown to the tenant.
    public func deleteBlob(id: String, tenant: String) async throws -> BlobRecord? {
        guard ResourceID.isWellFormed(id, prefix: "blb") else { return nil }
        return try await pool.write { db in
            guard let blob = try BlobRecord.filter(Column("id") == id && Column("tenant") == tenant).fetchOne(db) else {
                return nil
            }
            try blob.delete(db)
            return blob
        }
    }

    /// Every blob id the store knows (start-up clean-up of orphaned files).
    public func allBlobIDs() async throws -> Set<String> {
        Set(try await pool.read { db in try String.fetchAll(db, sql: "SELECT id FROM blob") })
    }
}
