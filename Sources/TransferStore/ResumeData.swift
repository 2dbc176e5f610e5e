import Crypto
import Foundation
import JSONCodec
public import TransferModels

/// What a download needs to continue where another stopped (`cancel(byProducingResumeData:)`, a failed
/// download's `NSURLSessionDownloadTaskResumeData`): the request, the partial file, how many bytes of it
/// count, and the validator the origin must still have for them.
///
/// Clients get it as an opaque token, sealed (AES-256-GCM) with a key derived from the store's secret
/// key and bound to the tenant: a token reveals nothing (not the file's path, not the tenant, not the
/// request), and cannot be forged, altered or used by another tenant. Its file lives until the source
/// task's files expire.
public struct ResumeData: Codable, Sendable, Hashable {
    public var tenant: String
    public var sourceTaskId: String
    public var request: URLRequestSnapshot
    public var path: String
    public var offset: Int64
    public var validator: String

    public init(tenant: String, sourceTaskId: String, request: URLRequestSnapshot, path: String, offset: Int64, validator: String) {
        self.tenant = tenant
        self.sourceTaskId = sourceTaskId
        self.request = request
        self.path = path
        self.offset = offset
        self.validator = validator
    }
}

/// Seals resume data into the tokens clients hold, and opens them again, with the store's `SecretBox`:
/// `TaskStore`'s verbs hand them out, the maintenance's janitor reads the files they name.
struct ResumeDataTokens: Sendable {
    let secrets: SecretBox

    var requestSecrets: RequestSecrets { RequestSecrets(box: secrets) }

    /// `base64url(nonce ‖ AES-GCM(JSON) ‖ tag)`, the tenant as associated data.
    func token(for resumeData: ResumeData) throws -> String {
        let payload = try WireJSON.encode(resumeData)
        let sealed = try AES.GCM.seal(payload, using: Self.resumeDataKey(secrets), authenticating: Data(resumeData.tenant.utf8))
        guard let combined = sealed.combined else { throw CryptoKitError.incorrectParameterSize }
        return TransferStore.base64URL(combined)
    }

    /// The resume data of `token` when this service made it for `tenant`; nil when it was altered, forged,
    /// is another tenant's, or is an older signed-only token.
    func resumeData(from token: String, tenant: String) -> ResumeData? {
        guard let combined = TransferStore.data(base64URL: Substring(token)), let box = try? AES.GCM.SealedBox(combined: combined),
            let payload = try? AES.GCM.open(box, using: Self.resumeDataKey(secrets), authenticating: Data(tenant.utf8)),
            var resume = try? StrictJSONDecoder().decode(ResumeData.self, from: Array(payload)), resume.tenant == tenant,
            let request = try? requestSecrets.opened(resume.request)  // tokens hold the request in clear: a no-op
        else { return nil }
        resume.request = request
        return resume
    }

    private static func resumeDataKey(_ secrets: SecretBox) -> SymmetricKey {
        secrets.derivedKey(purpose: "urlsessiond resume data v2 (sealed)")
    }
}

extension TransferStore {
    /// `base64url(nonce ‖ AES-GCM(JSON) ‖ tag)`, the tenant as associated data.
    public func token(for resumeData: ResumeData) throws -> String {
        try ResumeDataTokens(secrets: secrets).token(for: resumeData)
    }

    /// The resume data of `token` when this service made it for `tenant`; nil when it was altered, forged,
    /// is another tenant's, or is an older signed-only token.
    public func resumeData(from token: String, tenant: String) -> ResumeData? {
        ResumeDataTokens(secrets: secrets).resumeData(from: token, tenant: tenant)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of a canonical base64url text (no padding), nil for anything else: a last character
    /// whose unused bits are set decodes to the same bytes, and must not pass for another token.
    static func data(base64URL text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), base64URL(data) == text else { return nil }
        return data
    }
}
