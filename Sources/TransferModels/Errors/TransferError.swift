/// A transfer's failure as the API reports it: an `NSError` in `NSURLErrorDomain`, with the libcurl
/// cause kept under `underlying`.
public struct TransferError: Codable, Sendable, Hashable, Error {
    /// The libcurl (or system) error behind the URL error.
    public struct Underlying: Codable, Sendable, Hashable {
        public var domain: String
        public var code: Int
        public var message: String

        public init(domain: String, code: Int, message: String) {
            self.domain = domain
            self.code = code
            self.message = message
        }
    }

    public var domain: String
    public var code: Int
    public var name: String
    public var localizedDescription: String
    /// `NSErrorFailingURLStringKey`, `NSURLSessionDownloadTaskResumeData`, `NSURLErrorNetworkUnavailableReasonKey`, `reason`.
    public var userInfo: [String: String]
    public var underlying: Underlying?

    public init(_ code: URLErrorCode, failingURL: String? = nil, userInfo: [String: String] = [:], underlying: Underlying? = nil) {
        self.domain = "NSURLErrorDomain"
        self.code = code.rawValue
        self.name = code.name
        self.localizedDescription = code.localizedDescription
        var info = userInfo
        if let failingURL { info["NSErrorFailingURLStringKey"] = Redaction.url(failingURL) }
        self.userInfo = info
        self.underlying = underlying
    }

    /// `NSURLErrorCancelled` as URLSession reports a `cancel()`.
    public static func cancelled(failingURL: String?) -> TransferError { TransferError(.cancelled, failingURL: failingURL) }
}

extension TransferError {
    /// How a task that ended with `error` ended, for metrics and logs: `success` (no error), `cancelled`
    /// (NSURLErrorCancelled) or `failed`.
    public static func outcome(of error: TransferError?) -> String {
        guard let error else { return "success" }
        return error.domain == "NSURLErrorDomain" && error.code == URLErrorCode.cancelled.rawValue ? "cancelled" : "failed"
    }
}
