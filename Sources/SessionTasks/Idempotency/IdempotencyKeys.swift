public import Foundation
public import TransferStore

/// `Idempotency-Key`s of the API's POSTs: the first request with a key is answered once and its answer
/// kept, a retry gets it again, a different request with the same key (or one still being answered) is
/// refused. The store keeps the claims and the answers; this is the control plane's door to them.
public struct IdempotencyKeys: Sendable {
    let store: IdempotencyStore

    public init(store: TransferStore) { self.store = store.idempotency }

    /// What to do with a request that carries a key.
    public enum Decision: Sendable {
        /// First time: answer it, then `complete` (or `abandon`) with this claim.
        case proceed(Claim)
        /// Seen and answered: send this answer again.
        case replay(status: Int, contentType: String?, location: String?, body: Data)
        /// The key was used for another request, or its first request is still being answered.
        case conflict(reason: String)
    }

    /// The right to answer the request of one key: only its holder stores the answer.
    public struct Claim: Sendable {
        let claim: IdempotencyClaim
    }

    /// Claims `key` for the request of `fingerprint`, or says why not.
    public func begin(tenant: String, key: String, fingerprint: String) async throws -> Decision {
        switch try await store.beginIdempotentRequest(tenant: tenant, key: key, fingerprint: fingerprint) {
        case .proceed(let claim): .proceed(Claim(claim: claim))
        case .replay(let status, let contentType, let location, let body):
            .replay(status: status, contentType: contentType, location: location, body: body)
        case .conflict(let reason): .conflict(reason: reason)
        }
    }

    /// Keeps the answer to replay (if the claim still holds its key) and releases the claim.
    public func complete(_ claim: Claim, status: Int, contentType: String?, location: String?, body: Data) async throws {
        try await store.completeIdempotentRequest(
            claim.claim, status: status, contentType: contentType, location: location, body: body)
    }

    /// Releases the claim without an answer (the request failed in a way that may be retried).
    public func abandon(_ claim: Claim) async throws {
        try await store.abandonIdempotentRequest(claim.claim)
    }
}
