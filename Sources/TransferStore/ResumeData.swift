import Crypto
import Foundation
import JSONCodec
public import TransferModels

/// What a download needs to continue where another stopped (`cancel(byProducingResumeData:)`, a failed
/// download's `NSURLSessionDownloadTaskResumeData`): the request, the partial file, how many bytes of it
/// count, and the validator the origin must still have for them.
///
/// Clients get it as an opaque token, signed with a key derived from the store's secret key, so a
/// token cannot be forged, altered or used by another tenant; its file lives until the source task's
/// files expire. The request's credentials are sealed in it (`RequestSecrets`): the token is kept in task
/// rows and events, and is only base64, not a secret of its own.
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

extension TransferStore {
    /// `base64url(JSON).base64url(HMAC-SHA256)`.
    public func token(for resumeData: ResumeData) throws -> String {
        var resumeData = resumeData
        resumeData.request = try requestSecrets.sealed(resumeData.request)
        let payload = Data(try WireJSON.encode(resumeData))
        let mac = Data(HMAC<SHA256>.authenticationCode(for: payload, using: secrets.derivedKey(purpose: Self.resumeDataPurpose)))
        return Self.base64URL(payload) + "." + Self.base64URL(mac)
    }

    /// The resume data of `token` when this service made it for `tenant`; nil when it was altered, forged
    /// or is another tenant's.
    public func resumeData(from token: String, tenant: String) -> ResumeData? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Self.data(base64URL: parts[0]), let mac = Self.data(base64URL: parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: payload, using: secrets.derivedKey(purpose: Self.resumeDataPurpose)),
            var resume = try? StrictJSONDecoder().decode(ResumeData.self, from: Array(payload)), resume.tenant == tenant,
            let request = try? requestSecrets.opened(resume.request)  // a token made before sealing: clear
        else { return nil }
        resume.request = request
        return resume
    }

    private static let resumeDataPurpose = "urlsessiond resume data v1"

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func data(base64URL text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
