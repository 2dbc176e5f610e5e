import Foundation
public import TransferModels

/// Blobs (uploaded once, sent as many tasks' bodies: the `blob` rows, their objects) and the files tasks
/// downloaded (paths, kept bodies, objects, partial files kept for resume data): what the data directory
/// and the object store hold, and when each may go. Blob rows count towards the tenant's usage, checked in
/// the transaction that inserts them.
public struct BlobStore: Sendable {
    let database: any StoreDatabase
    let housekeeping: HousekeepingWrites
    let tenantUsage: UsageStore
}

extension BlobStore {
    /// Records a blob whose file is already in place.
    ///
    /// - Throws: `QuotaExceeded` (`blobCount`, `blobBytes`) when it would take the tenant past a limit;
    ///   nothing is recorded then (the caller removes the file).
    public func insertBlob(_ blob: BlobRecord) async throws -> BlobRecord {
        let limits = tenantUsage.quotaLimits
        let (outcome, usage) = try await database.write { db -> (Result<BlobRecord, QuotaExceeded>, TenantUsage) in
            let usage = try UsageStore.usage(db, tenant: blob.tenant)
            do throws(QuotaExceeded) {
                try limits.check(.blobCount, usage: usage.blobCount, adding: 1)
                try limits.check(.blobBytes, usage: usage.blobBytes, adding: blob.size)
            } catch {
                return (.failure(error), usage)
            }
            var blob = blob
            blob.rowid = try db.value(
                "INSERT INTO blob (id, tenant, size, digest, createdAt) VALUES (?, ?, ?, ?, ?) RETURNING rowid",
                blob.id, blob.tenant, blob.size, blob.digest, blob.createdAt)
            return (.success(blob), try UsageStore.usage(db, tenant: blob.tenant))
        }
        tenantUsage.remember(usage, of: blob.tenant)  // the hint that stops uploads as they arrive stays current
        return try outcome.get()
    }

    public func blob(id: String, tenant: String) async throws -> BlobRecord? {
        guard ResourceID.isWellFormed(id, prefix: "blb") else { return nil }
        return try await database.read { db in
            try db.row("SELECT * FROM blob WHERE id = ? AND tenant = ?", id, tenant).map(BlobRecord.init(row:))
        }
    }

    /// Deletes the row and returns it (the caller removes the file); nil when unknown to the tenant.
    public func deleteBlob(id: String, tenant: String) async throws -> BlobRecord? {
        guard ResourceID.isWellFormed(id, prefix: "blb") else { return nil }
        let deleted = try await database.write { db -> BlobRecord? in
            try db.row("DELETE FROM blob WHERE id = ? AND tenant = ? RETURNING *", id, tenant).map(BlobRecord.init(row:))
        }
        if deleted != nil { _ = try await tenantUsage.usage(tenant: tenant) }  // refreshes the hint uploads are stopped by
        return deleted
    }

    /// Names the object a blob was put into (its local file is removed after this returns); false when
    /// the blob was deleted meanwhile, so the caller deletes the object no row names.
    public func recordBlobObject(id: String, key: String) async throws -> Bool {
        try await database.write { db in
            try db.execute("UPDATE blob SET object = ? WHERE id = ?", key, id) > 0
        }
    }

    /// Every blob id the store knows (start-up clean-up of orphaned files).
    public func allBlobIDs() async throws -> Set<String> {
        Set(try await database.read { db in try db.values("SELECT id FROM blob", as: String.self) })
    }
}
