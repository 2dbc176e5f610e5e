public import Foundation
import JSONCodec

/// Standard Webhooks signing secrets: `whsec_` followed by base64 of 24 to 64 random bytes.
public enum WebhookSecret {
    public static let prefix = "whsec_"

    /// A new secret with 32 random bytes.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + Data(bytes).base64EncodedString()
    }

    /// The key bytes of a well-formed secret, or nil.
    public static func keyBytes(_ secret: String) -> Data? {
        guard secret.hasPrefix(prefix), let data = Data(base64Encoded: String(secret.dropFirst(prefix.count))),
            (24...64).contains(data.count)
        else { return nil }
        return data
    }

    static func validate(_ secret: String, field: String) throws(RequestDecodingError) {
        guard keyBytes(secret) != nil else {
            throw .invalidValue(field, "must be \"whsec_\" followed by base64 of 24 to 64 bytes")
        }
    }
}
