public import Foundation
public import JSONCodec
import TransferModels

/// A row of `idempotencyKey`: the first answer to a POST carrying `Idempotency-Key`.
public struct IdempotencyRecord: Codable, Sendable, Hashable {
    public var tenant: String
    public var key: String
    /// sha-256 of method, path and body: a replay must match it exactly.
    public var fingerprint: String
    /// nil while the first request is still being answered.
    public var status: Int?
    public var contentType: String?
    public var location: String?
    /// The answer's body, sealed (it may hold a generated webhook secret).
    public var body: Data?
    public var createdAt: Date
    /// The token of the claim answering it (`IdempotencyClaim`); nil in rows from before claims had owners.
    public var claim: String?

    public init(tenant: String, key: String, fingerprint: String, createdAt: Date = .nowMilliseconds) {
        self.tenant = tenant
        self.key = key
        self.fingerprint = fingerprint
        self.createdAt = createdAt
    }

    init(row: StoreRow) throws {
        tenant = try row.decode(forColumn: "tenant")
        key = try row.decode(forColumn: "key")
        fingerprint = try row.decode(forColumn: "fingerprint")
        status = try row.decode(forColumn: "status")
        contentType = try row.decode(forColumn: "contentType")
        location = try row.decode(forColumn: "location")
        body = try row.decode(forColumn: "body")
        createdAt = try row.decode(forColumn: "createdAt")
        claim = try row.decode(forColumn: "claim")
    }
}
