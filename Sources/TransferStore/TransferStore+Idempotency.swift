public import Foundation
import GRDB

/// What to do with a POST that carries an `Idempotency-Key`.
public enum IdempotencyDecision: Sendable {
    /// First time: handle it, then `completeIdempotentRequest` (or `abandonIdempotentRequest`).
    case proceed
    /// Seen and answered: send this answer again.
    case replay(status: Int, contentType: String?, location: String?, body: Data)
    /// The key was used for another request, or its first request is still being answered.
    case conflict(reason: String)
}

extension TransferStore {
    /// How long a key is remembered.
    public static let idempotencyWindow: TimeInterval = 24 * 3600
    /// A claim older than this whose request never finished (a crash) may be taken over.
    static let abandonedClaimAge: TimeInterval = 120

    /// Claims `key` for a request with `fingerprint`, or says how the request was already answered.
    public func beginIdempotentRequest(
        tenant: String, key: String, fingerprint: String, now: Date = Date()
    ) async throws -> IdempotencyDecision {
        let found: IdempotencyRecord? = try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM idempotencyKey WHERE createdAt < ?",
                arguments: [now.addingTimeInterval(-Self.idempotencyWindow)])
            if let existing = try IdempotencyRecord.fetchOne(db, key: ["tenant": tenant, "key": key]) {
                let abandoned = existing.status == nil && existing.createdAt < now.addingTimeInterval(-Self.abandonedClaimAge)
                guard abandoned else { return existing }
                try existing.delete(db)
            }
            try IdempotencyRecord(tenant: tenant, key: key, fingerprint: fingerprint, createdAt: now).insert(db)
            return nil
        }
        guard let found else { return .proceed }
        guard found.fingerprint == fingerprint else {
            return .conflict(reason: "this Idempotency-Key was used for a different request")
        }
        guard let status = found.status else {
            return .conflict(reason: "the first request with this Idempotency-Key is still being answered")
        }
        let body = try found.body.map { try secrets.open($0) } ?? Data()
        return .replay(status: status, contentType: found.contentType, location: found.location, body: body)
    }

    /// Stores the answer to replay for `key`.
    public func completeIdempotentRequest(
        tenant: String, key: String, status: Int, contentType: String?, location: String?, body: Data
    ) async throws {
        let sealed = try secrets.seal(body)
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE idempotencyKey SET status = ?, contentType = ?, location = ?, body = ? WHERE tenant = ? AND key = ?",
                arguments: [status, contentType, location, sealed, tenant, key])
        }
    }

    /// Releases the claim on `key` (the request failed in a way that may be retried).
    public func abandonIdempotentRequest(tenant: String, key: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM idempotencyKey WHERE tenant = ? AND key = ? AND status IS NULL", arguments: [tenant, key])
        }
    }
}
