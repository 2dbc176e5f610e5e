import Foundation
import GRDB
import TransferModels

extension TransferStore {
    /// Records a blob whose file is already in place.
    ///
    /// - Throws: `QuotaExceeded` (`blobCount`, `blobBytes`) when it would take the tenant past a limit;
    ///   nothing is recorded then (the caller removes the file).
    public func insertBlob(_ blob: BlobRecord) async throws -> BlobRecord {
        let limits = quotaLimits
        let (outcome, usage) = try await pool.write { db -> (Result<BlobRecord, QuotaExceeded>, TenantUsage) in
            let usage = try Self.usage(db, tenant: blob.tenant)
            do throws(QuotaExceeded) {
                try limits.check(.blobCount, usage: usage.blobCount, adding: 1)
                try limits.check(.blobBytes, usage: usage.blobBytes, adding: blob.size)
            } catch {
                return (.failure(error), usage)
            }
            var blob = blob
            try blob.insert(db)
            return (.success(blob), try Self.usage(db, tenant: blob.tenant))
        }
        remember(usage, of: blob.tenant)  // the hint that stops uploads as they arrive stays current
        return try outcome.get()
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
        let deleted = try await pool.write { db -> BlobRecord? in
            guard let blob = try BlobRecord.filter(Column("id") == id && Column("tenant") == tenant).fetchOne(db) else {
                return nil
            }
            try blob.delete(db)
            return blob
        }
        if deleted != nil { _ = try await usage(tenant: tenant) }  // refreshes the hint uploads are stopped by
        return deleted
    }

    /// Every blob id the store knows (start-up clean-up of orphaned files).
    public func allBlobIDs() async throws -> Set<String> {
        Set(try await pool.read { db in try String.fetchAll(db, sql: "SELECT id FROM blob") })
    }
}
