import Curl
import Foundation

/// One webhook POST, as the dispatcher hands it to the loop.
struct WebhookRequest: Sendable {
    var url: String
    /// `Name: value` lines.
    var headers: [String]
    var body: [UInt8]
    /// Seconds for the whole exchange, connecting included.
    var timeout: Double
}

/// A queue's next POSTs, signed together and sent in order on one handle: each leaves as soon as the one
/// before it is answered 2xx, without a round trip through the coordinator (a queue has one POST in
/// flight either way). The first other answer or failure ends the chain, and so does its age
/// (`EventDeliveryConfiguration.chainLifetime`: a signature's timestamp must stay fresh) or the
/// coordinator's `endChain` (the queue was re-addressed or handed to another node); the coordinator sends
/// what is left again.
struct WebhookChain: Sendable {
    /// Matches the responses to the queue.
    var token: Int
    var requests: [WebhookRequest]
    /// When the requests were signed.
    var signedAt: ContinuousClock.Instant
}

/// How one POST of a chain ended; the responses of a chain come in its order.
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
    /// The chain's next POST has left: the queue is still in flight.
    var chainGoesOn = false

    /// A 2xx: the receiver has the event.
    var isAcknowledged: Bool { curlCode == 0 && (200..<300).contains(status) }
}

/// One attempt on the loop thread: its easy handle (reused from the loop's pool), what it sends, and what
/// comes back. It is its easy handle's delegate; the loop's table keeps it alive meanwhile.
final class WebhookExchange {
    static let bodyLimit = 64 * 1024

    let token: Int
    let easy: CurlEasyHandle
    /// The chain's POSTs after this one, and when they were signed.
    var following: ArraySlice<WebhookRequest>
    let signedAt: ContinuousClock.Instant
    var retryAfter: String?
    var body: [UInt8] = []

    /// The first POST of `chain`, on a handle from the pool.
    convenience init(chain: WebhookChain, easy: CurlEasyHandle, configuration: EventDeliveryConfiguration) throws(CurlError) {
        try easy.reset()
        // The same guard as transfers: http(s) only, no redirects, no proxy from the environment.
        try easy.apply(configuration.safetyBaseline)
        try easy.installCallbacks(.response)
        try self.init(
            token: chain.token, request: chain.requests[0], following: chain.requests.dropFirst(), signedAt: chain.signedAt,
            easy: easy)
    }

    /// The POST after `previous` in its chain, on the same handle: its options stay (the handle ended
    /// answered 2xx, so no refusal is recorded on it); only what differs between POSTs is set.
    convenience init(after previous: WebhookExchange) throws(CurlError) {
        try self.init(
            token: previous.token, request: previous.following[previous.following.startIndex],
            following: previous.following.dropFirst(), signedAt: previous.signedAt, easy: previous.easy)
    }

    private init(
        token: Int, request: WebhookRequest, following: ArraySlice<WebhookRequest>, signedAt: ContinuousClock.Instant,
        easy: CurlEasyHandle
    ) throws(CurlError) {
        self.token = token
        self.easy = easy
        self.following = following
        self.signedAt = signedAt
        try easy.set(.url, request.url)
        let milliseconds = max(1, Int(request.timeout * 1000))
        try easy.set(.timeoutMilliseconds, milliseconds)
        try easy.set(.connectTimeoutMilliseconds, milliseconds)
        try easy.set(.post, true)
        try easy.set(.postFieldSize, Int64(request.body.count))
        try easy.setCopiedBody(request.body)
        try easy.setHeaders(request.headers)
        easy.delegate = self
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
