internal import CCurl
import Foundation
import TransferEngine

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
}

/// One attempt on the loop thread: its easy handle (reused from the loop's pool), what it sends, and what
/// comes back. C callbacks reach it through their userdata; the loop's table keeps it alive meanwhile.
final class WebhookExchange {
    static let bodyLimit = 64 * 1024

    let token: Int
    let easy: CurlEasyHandle
    private let policy: EgressPolicy
    var retryAfter: String?
    var body: [UInt8] = []
    var egressDenial: String?

    init(request: WebhookRequest, easy: CurlEasyHandle, configuration: EventDeliveryConfiguration) throws(CurlError) {
        self.token = request.token
        self.easy = easy
        self.policy = configuration.egress
        let context = Unmanaged.passUnretained(self).toOpaque()
        try easy.reset()
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_NOSIGNAL, true)
        // The same guard as transfers: http(s) only, no redirects, no proxy from the environment.
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_FOLLOWLOCATION, false)
        try easy.set(CURLOPT_PROXY, "")
        try easy.set(CURLOPT_TCP_KEEPALIVE, true)
        if let authorities = configuration.certificateAuthorities { try easy.set(CURLOPT_CAINFO, authorities) }
        let milliseconds = max(1, Int(request.timeout * 1000))
        try easy.set(CURLOPT_TIMEOUT_MS, milliseconds)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        try easy.set(CURLOPT_POST, true)
        try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(request.body.count))
        var bytes = request.body
        let copied = bytes.withUnsafeMutableBytes { buffer in  // libcurl copies them during the call
            ccurl_easy_setopt_pointer(easy.raw, CURLOPT_COPYPOSTFIELDS, buffer.baseAddress)
        }
        try CurlError.check(copied)
        try easy.set(CURLOPT_HTTPHEADER, list: request.headers)
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try CurlError.check(ccurl_easy_setopt_write_function(easy.raw, webhookWriteCallback))
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        try CurlError.check(ccurl_easy_setopt_header_function(easy.raw, webhookHeaderCallback))
        try easy.set(CURLOPT_OPENSOCKETDATA, pointer: context)
        try CurlError.check(ccurl_easy_setopt_opensocket_function(easy.raw, webhookOpenSocketCallback))
    }

    /// The outcome once libcurl reported `result` for this handle.
    func response(result: CURLcode) -> WebhookResponse {
        guard result == CURLE_OK else {
            let failure = egressDenial.map { "egress policy: \($0)" } ?? easy.errorMessage(for: result)
            return WebhookResponse(
                token: token, status: 0, retryAfter: nil, body: [], curlCode: Int(result.rawValue), failure: failure)
        }
        return WebhookResponse(
            token: token, status: easy.info(CURLINFO_RESPONSE_CODE), retryAfter: retryAfter, body: body, curlCode: 0,
            failure: nil)
    }

    fileprivate func checkEgress(_ address: UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t {
        let outcome = EgressSocket.open(address, policy: policy)
        if case .denied(let reason) = outcome { egressDenial = reason }
        return EgressSocket.callbackResult(outcome)
    }
}

@available(*, unavailable) extension WebhookExchange: Sendable {}

// libcurl's callbacks for a WebhookExchange: no captures, short, the exchange from userdata.

private func exchange(_ userdata: UnsafeMutableRawPointer?) -> WebhookExchange? {
    userdata.map { Unmanaged<WebhookExchange>.fromOpaque($0).takeUnretainedValue() }
}

/// `CURLOPT_WRITEFUNCTION`: keeps the answer up to the limit and drops the rest (never fails the POST).
private let webhookWriteCallback: curl_write_callback = { data, size, count, userdata in
    let length = size * count
    guard let exchange = exchange(userdata), let data else { return length }
    let room = WebhookExchange.bodyLimit - exchange.body.count
    if room > 0 {
        exchange.body += UnsafeRawBufferPointer(start: data, count: min(room, length))
    }
    return length
}

/// `CURLOPT_HEADERFUNCTION`: remembers `Retry-After` of the last response head.
private let webhookHeaderCallback: curl_write_callback = { data, size, count, userdata in
    let length = size * count
    guard let exchange = exchange(userdata), let data else { return length }
    let line = UnsafeRawBufferPointer(start: data, count: length)
    guard let first = line.first else { return length }
    if first == UInt8(ascii: "H") || first == UInt8(ascii: "h"), line.starts(with: "HTTP/".utf8) {
        exchange.retryAfter = nil  // a new response head (an interim 1xx came first)
    } else if first == UInt8(ascii: "R") || first == UInt8(ascii: "r") {
        let text = String(decoding: line, as: UTF8.self)
        if let colon = text.firstIndex(of: ":"), text[..<colon].lowercased() == "retry-after" {
            exchange.retryAfter = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
    return length
}

/// `CURLOPT_OPENSOCKETFUNCTION`: every resolved address passes the service's egress policy.
private let webhookOpenSocketCallback: curl_opensocket_callback = { userdata, _, address in
    guard let exchange = exchange(userdata) else { return ccurl_socket_bad() }
    return exchange.checkEgress(address)
}
