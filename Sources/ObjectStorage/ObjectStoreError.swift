/// Why an object store request failed. Its text names the operation, the key and the server's or
/// libcurl's reason, never the secret (libcurl's messages do not quote credentials; S3's error bodies
/// carry a code and a message, which are kept, and nothing of the request's signature).
public struct ObjectStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case invalidConfiguration, notFound, rejected, transport, localFile, cancelled
    }

    private let code: Code
    /// The HTTP status the server answered (0: none).
    public let status: Int
    /// S3's error code from the answer's XML (`SignatureDoesNotMatch`, `NoSuchKey`, …), when it gave one.
    public let serverCode: String?
    public let detail: String

    private init(_ code: Code, status: Int = 0, serverCode: String? = nil, detail: String) {
        self.code = code
        self.status = status
        self.serverCode = serverCode
        self.detail = detail
    }

    /// The configuration cannot be used (bad URL, missing credentials).
    public static func invalidConfiguration(_ detail: String) -> Self { Self(.invalidConfiguration, detail: detail) }
    /// No object under the key (404).
    static func notFound(_ detail: String) -> Self { Self(.notFound, status: 404, serverCode: "NoSuchKey", detail: detail) }
    /// The server refused the request (any other status than the one expected).
    static func rejected(status: Int, serverCode: String?, detail: String) -> Self {
        Self(.rejected, status: status, serverCode: serverCode, detail: detail)
    }
    /// No answer: libcurl failed (connection, timeout, …).
    static func transport(_ detail: String) -> Self { Self(.transport, detail: detail) }
    /// The local file to send could not be read.
    static func localFile(_ detail: String) -> Self { Self(.localFile, detail: detail) }
    /// The reader stopped reading before the end.
    static let cancelled = Self(.cancelled, detail: "the reader stopped")

    public var isNotFound: Bool { code == .notFound }
    public var isInvalidConfiguration: Bool { code == .invalidConfiguration }
    /// The server refused the signature or the key (403 `SignatureDoesNotMatch`, `InvalidAccessKeyId`, …).
    public var isAuthenticationFailure: Bool {
        code == .rejected && status == 403
            && ["SignatureDoesNotMatch", "InvalidAccessKeyId", "InvalidClientTokenId", "AccessDenied"].contains(serverCode ?? "")
    }

    /// For metric labels: no associated values.
    public var shortDescription: String {
        switch code {
        case .invalidConfiguration: "invalidConfiguration"
        case .notFound: "notFound"
        case .rejected: "rejected"
        case .transport: "transport"
        case .localFile: "localFile"
        case .cancelled: "cancelled"
        }
    }

    public var description: String {
        var text = "object store \(shortDescription)"
        if status != 0 { text += " (HTTP \(status)\(serverCode.map { " \($0)" } ?? ""))" }
        return text + ": " + detail
    }
}
