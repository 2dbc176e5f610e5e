import Crypto
public import Foundation
import TransferModels
public import TransferStore

/// Signs webhook requests per Standard Webhooks v1: `webhook-signature: v1,<base64 HMAC-SHA256>` of
/// `"<webhook-id>.<webhook-timestamp>.<body>"`, keyed by the base64-decoded part of the `whsec_` secret.
public struct WebhookSigner: Sendable {
    /// The HMAC with the key already taken in (its inner and outer pads hashed), copied for each signature:
    /// a lane signs every POST with the same key, and taking the key in each time was 0.9 % of the
    /// service's CPU while it delivered webhooks (`Benchmarks/events.sh` with `PROFILE`).
    /// (`HMAC` is not declared `Sendable`, but it is a value whose hash states copy on write: this one is
    /// never written, only copied.)
    nonisolated(unsafe) private let keyed: HMAC<SHA256>

    /// A signer for a `whsec_` secret; nil when the secret is malformed.
    public init?(secret: String) {
        guard let bytes = WebhookSecret.keyBytes(secret) else { return nil }
        self.init(key: Array(bytes))
    }

    public init(key: WebhookSigningKey) { self.init(key: key.bytes) }

    private init(key: [UInt8]) { keyed = HMAC<SHA256>(key: SymmetricKey(data: key)) }

    /// `v1,<base64 signature>` for `id`, `timestamp` (unix seconds) and the exact body bytes.
    public func signature(id: String, timestamp: Int64, body: some DataProtocol) -> String {
        var hmac = keyed
        hmac.update(data: Array("\(id).\(timestamp).".utf8))
        hmac.update(data: body)
        return "v1," + Data(hmac.finalize()).base64EncodedString()
    }

    /// The three Standard Webhooks headers for one attempt.
    public func headers(id: String, timestamp: Int64, body: some DataProtocol) -> [(name: String, value: String)] {
        [
            ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", signature(id: id, timestamp: timestamp, body: body)),
        ]
    }
}
