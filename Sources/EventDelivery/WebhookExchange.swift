import Curl
import Foundation

/// One webhook POST, as the dispatcher hands it to the loop.
struct WebhookRequest: Sendable {
    /// Matches the response to the attempt.
    var token: Int
    var url: String
    /// `Name: value` lines.
    var headers: [String]
    var body: [UInt8]
    /// Seconds for the whole exchange, connecting included.
    var timeout: Double
}

/// How an attempt ended.
struct WebhookResponse: Sendable {
    var token: Int
    /// The HTTP status; 0 when no response arrived.
    var status: Int
    /// The raw `Retry-After` value of the final response.
    var retryAfter: String?
    /// The answer's body, at most `WebhookExchange.bodyLimit` bytes (decision answers are small).
    var body: [UInt8]
    /// The `CURLcode` (0: a response arrived).
    var curlCode: Int
    /// libcurl's text for a failure, or the egress policy's reason.
    var failure: String?
    /// The `errno` of a failure to connect (0: none or unknown).
    var osErrno = 0
    /// The egress policy refused the destination (`failure` then says which address).
    var deniedByEgressPolicy = false
}

/// One attempt on the loop thread: its easy handle (reused from the loop's pool), what it sends, and what
/// comes back. It is its easy handle's delegate; the loop's table keeps it alive meanwhile.
final class WebhookExchange {
    static let bodyLimit = 64 * 1024

    let token: Int
    let easy: CurlEasyHandle
    var retryAfter: String?
    var body: [UInt8] = []

    init(request: WebhookRequest, easy: CurlEasyHandle, configuration: EventDeliveryConfiguration) throws(CurlError) {
        self.token = request.token
        self.easy = easy
        try easy.reset()
        // The same guard as transfers: http(s) only, no redirects, no proxy from the environment.
        try easy.apply(configuration.safetyBaseline)
        try easy.set(.url, request.url)
        let milliseconds = max(1, Int(request.timeout * 1000))
        try easy.set(.timeoutMilliseconds, milliseconds)
        try easy.set(.connectTimeoutMilliseconds, milliseconds)
        try easy.set(.post, true)
        try easy.set(.postFieldSize, Int64(request.body.count))
        try easy.setCopiedBody(request.body)
        try easy.setHeaders(request.headers)
        easy.delegate = self
        try easy.installCallbacks(.response)
    }

    /// The outcome once libcurl reported `result` for this handle.
    func response(result: CurlResult) -> WebhookResponse {
        guard result.isSuccess else {
            let failure = easy.egressDenial.map { "egress policy: \($0)" } ?? easy.errorMessage(for: result)
            return WebhookResponse(
                token: token, status: 0, retryAfter: nil, body: [], curlCode: result.code, failure: failure,
                osErrno: easy.info(.osErrno), deniedByEgressPolicy: easy.egressDenial != nil)
        }
        return WebhookResponse(
            token: token, status: easy.info(.responseCode), retryAfter: retryAfter, body: body, curlCode: 0, failure: nil)
    }
}

extension WebhookExchange: CurlTransferDelegate {
    /// Keeps the answer up to the limit and drops the rest (never fails the POST).
    func curlDidReceiveBody(_ bytes: UnsafeRawBufferPointer) -> CurlBodyVerdict {
        let room = Self.bodyLimit - body.count
        if room > 0 { body += UnsafeRawBufferPointer(rebasing: bytes.prefix(room)) }
        return .accepted
    }

    /// Remembers `Retry-After` of the last response head.
    func curlDidReceiveHeaderLine(_ line: UnsafeRawBufferPointer) {
        guard let first = line.first else { return }
        if first == UInt8(ascii: "H") || first == UInt8(ascii: "h"), line.starts(with: "HTTP/".utf8) {
            retryAfter = nil  // a new response head (an interim 1xx came first)
        } else if first == UInt8(ascii: "R") || first == UInt8(ascii: "r") {
            let text = String(decoding: line, as: UTF8.self)
            if let colon = text.firstIndex(of: ":"), text[..<colon].lowercased() == "retry-after" {
                retryAfter = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
    }
}

@available(*, unavailable) extension WebhookExchange: Sendable {}
