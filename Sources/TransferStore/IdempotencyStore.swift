public import Foundation
import GRDB
import TransferModels

/// What to do with a POST that carries an `Idempotency-Key`.
public enum IdempotencyDecision: Sendable {
    /// First time: handle it, then `completeIdempotentRequest` (or `abandonIdempotentRequest`) with this claim.
    case proceed(IdempotencyClaim)
    /// Seen and answered: send this answer again.
    case replay(status: Int, contentType: String?, location: String?, body: Data)
    /// The key was used for another request, or its first request is still being answered.
    case conflict(reason: String)
}

/// The right to answer the request of one `Idempotency-Key`: only its holder stores the answer.
public struct IdempotencyClaim: Sendable, Hashable {
    public let tenant: String
    public let key: String
    /// Random, per claim: a later claim on the same key (after this one's process died) is another token.
    let token: String
}

/// `Idempotency-Key`s: the first request with a key is answered once and its answer kept (sealed) for
/// `idempotencyWindow`, a retry gets it again, a request still being answered or a different request with
/// the same key is refused. Its own aggregate: the keys belong to the API's requests, whatever those
/// create (sessions, tasks, blobs).
public struct IdempotencyStore: Sendable {
    let database: any StoreDatabase
    let secrets: SecretBox
    /// The `Idempotency-Key` claims whose requests this process is answering (never taken over).
    let liveIdempotencyClaims = LockedBox<Set<String>>([])
}

extension IdempotencyStore {
    /// How long a key is remembered.
    public static let idempotencyWindow: TimeInterval = 24 * 3600

    /// Claims `key` for a request with `fingerprint`, or says how the request was already answered.
    ///
    /// An unanswered claim is taken over only when no request of this process holds it any more: its
    /// process died (a crash, a restart), or its request ended without storing an answer. Age alone never
    /// frees it, since a request may run for minutes (`?wait=` up to 300 s).
    public func beginIdempotentRequest(
        tenant: String, key: String, fingerprint: String, now: Date = Date()
    ) async throws -> IdempotencyDecision {
        let token = ResourceID.make(prefix: "claim")
        let found: IdempotencyRecord?
        do {
            found = try await database.write { [liveIdempotencyClaims] db in
                try db.execute("DELETE FROM idempotencyKey WHERE createdAt < ?", now.addingTimeInterval(-Self.idempotencyWindow))
                if let existing = try db.row("SELECT * FROM idempotencyKey WHERE tenant = ? AND key = ?", tenant, key)
                    .map(IdempotencyRecord.init(row:))
                {
                    let isRunning = existing.claim.map { claim in liveIdempotencyClaims.withLock { $0.contains(claim) } } ?? false
                    guard existing.status == nil, !isRunning else { return existing }
                    try db.execute("DELETE FROM idempotencyKey WHERE tenant = ? AND key = ?", tenant, key)
                }
                // Live before the commit: whoever reads the row afterwards sees its request running.
                liveIdempotencyClaims.withLock { _ = $0.insert(token) }
                try db.execute(
                    "INSERT INTO idempotencyKey (tenant, key, fingerprint, createdAt, claim) VALUES (?, ?, ?, ?, ?)",
                    tenant, key, fingerprint, now, token)
                return nil
            }
        } catch {
            liveIdempotencyClaims.withLock { _ = $0.remove(token) }
            throw error
        }
        guard let found else { return .proceed(IdempotencyClaim(tenant: tenant, key: key, token: token)) }
        liveIdempotencyClaims.withLock { _ = $0.remove(token) }
        guard found.fingerprint == fingerprint else {
            return .conflict(reason: "this Idempotency-Key was used for a different request")
        }
        guard let status = found.status else {
            return .conflict(reason: "the first request with this Idempotency-Key is still being answered")
        }
        let body = try found.body.map { try secrets.open($0) } ?? Data()
        return .replay(status: status, contentType: found.contentType, location: found.location, body: body)
    }

    /// Stores the answer to replay, if `claim` still holds its key (a claim taken over stores nothing, so
    /// it never overwrites the answer of the request that took it over). Releases the claim either way.
    public func completeIdempotentRequest(
        _ claim: IdempotencyClaim, status: Int, contentType: String?, location: String?, body: Data
    ) async throws {
        defer { liveIdempotencyClaims.withLock { _ = $0.remove(claim.token) } }
        let sealed = try secrets.seal(body)
        try await database.write { db in
            try db.execute(
                """
                UPDATE idempotencyKey SET status = ?, contentType = ?, location = ?, body = ?
                WHERE tenant = ? AND key = ? AND claim = ? AND status IS NULL
                """,
                status, contentType, location, sealed, claim.tenant, claim.key, claim.token)
        }
    }

    /// Releases `claim` without an answer (the request failed in a way that may be retried).
    public func abandonIdempotentRequest(_ claim: IdempotencyClaim) async throws {
        defer { liveIdempotencyClaims.withLock { _ = $0.remove(claim.token) } }
        try await database.write { db in
            try db.execute(
                "DELETE FROM idempotencyKey WHERE tenant = ? AND key = ? AND claim = ? AND status IS NULL", claim.tenant, claim.key,
                claim.token)
        }
    }
}
