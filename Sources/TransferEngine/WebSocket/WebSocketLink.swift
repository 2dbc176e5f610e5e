import Curl
import Foundation
import TransferModels
import WebSockets

/// One WebSocket job on the loop: its easy handle and connection, the protocol state machine once
/// connected, the API's channel once open, and what ends it. Confined to the loop thread, except while
/// `phase` is `.connecting`: then only the connect thread touches `transport` (and the loop nothing of it).
final class WebSocketLink {
    enum Phase {
        /// The connect thread is opening the connection (`CurlConnection.connect`, blocking).
        case connecting
        /// Connected: the handshake, then frames (`WebSocketConnection`'s own states).
        case connected(WebSocketConnection)
    }

    let job: TransferJob
    let transport: CurlConnection
    /// The `http`/`https` URL the `ws`/`wss` one stands for (RFC 6455 §3): what libcurl connects to, and
    /// what cookies and credentials are looked up for.
    let httpURL: String
    /// The service's egress policy: a proxied target is held to it too.
    let egress: EgressPolicy
    var phase = Phase.connecting
    var channel: WebSocketChannel?
    /// The response head of the upgrade (101), or of its refusal.
    var response: ResponseHead?
    /// `cancel(with:reason:)` asked for this close (before the connection was up, it is sent once open).
    var requestedClose: WebSocketClose?
    /// A plain `cancel()` came while connecting: the task ends cancelled once the connect thread returns.
    var cancelledWhileConnecting = false
    /// Until the upgrade is accepted: `timeoutIntervalForRequest` bounds the connection and the handshake.
    let handshakeDeadline: ContinuousClock.Instant
    /// After our close frame: how long the peer has to answer with its own.
    var closeDeadline: ContinuousClock.Instant?
    /// Sends written to the connection's queue and not yet on the wire, by the channel's token.
    var unflushedSends: [UInt64] = []
    var bytesSent: Int64 = 0
    var bytesReceived: Int64 = 0

    /// How long the peer has to answer our close frame before the connection is dropped.
    static let closeTimeout: Duration = .seconds(10)

    init(job: TransferJob, configuration: EngineConfiguration) throws {
        self.job = job
        httpURL = Self.httpURL(job.request.url)
        egress = configuration.egress
        let easy = try CurlEasyHandle()
        try Transfer.applyConnectionOptions(to: easy, job: job, url: httpURL, configuration: configuration)
        try Self.applyTLS(to: easy, job: job, url: httpURL)
        try easy.set(.connectTimeoutMilliseconds, max(1, Int(job.timeoutIntervalForRequest * 1000)))
        transport = CurlConnection(handle: easy)
        handshakeDeadline = .now + .milliseconds(Int64(job.timeoutIntervalForRequest * 1000))
    }

    var connection: WebSocketConnection? {
        if case .connected(let connection) = phase { connection } else { nil }
    }

    /// `ws://` → `http://`, `wss://` → `https://`.
    static func httpURL(_ url: String) -> String {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        switch scheme {
        case "ws": return "http" + url.dropFirst(2)
        case "wss": return "https" + url.dropFirst(3)
        default: return url
        }
    }

    /// The TLS a session's HTTP transfer would have by default handling: its trust bundle, its pins, and
    /// the client identity stored for the origin. (A delegate's TLS decisions are not asked: a WebSocket
    /// connection has no request to send again after one, as `Transfer` does.)
    private static func applyTLS(to easy: CurlEasyHandle, job: TransferJob, url: String) throws {
        if let bundle = job.certificateAuthoritiesFile { try easy.set(.certificateAuthorities, bundle) }
        if let pins = job.pinnedPublicKeys { try easy.set(.pinnedPublicKey, pins) }
        guard let origin = TLSOrigin(url: url), let identity = job.credentials?.clientIdentity(host: origin.host, port: origin.port)
        else { return }
        try easy.setClientIdentity(
            certificateChainPEM: identity.certificateChain, privateKeyPEM: identity.privateKey, passphrase: identity.passphrase)
    }

    /// Starts the protocol on the connection libcurl opened: the handshake carries the request's fields
    /// (the session's additional headers under its own), the session's cookies for the URL, and a Basic
    /// credential — the URL's `user:password`, or the storage's default for the origin's protection space
    /// with no realm (no challenge has named one yet) — unless the request sets `Authorization` itself.
    func begin() {
        guard let components = URLComponents(string: httpURL) else { return }
        var target = components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var host = components.percentEncodedHost ?? ""
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        if let port = components.port { host += ":\(port)" }
        var fields = job.request.headers
        let names = Set(fields.map { $0.name.lowercased() })
        if !names.contains("cookie"), let cookies = job.cookies?.cookieHeader(for: httpURL) { fields.append(("Cookie", cookies)) }
        if !names.contains("authorization"), let (user, password) = basicCredential(components) {
            fields.append(("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()))
        }
        if !names.contains("user-agent") { fields.append(("User-Agent", "urlsessiond (libcurl)")) }
        let connection = WebSocketConnection(
            connection: transport, target: target, host: host, protocols: job.webSocket?.protocols ?? [], fields: fields,
            maximumMessageSize: job.webSocket?.maximumMessageSize ?? WebSocketTaskOptions.defaultMaximumMessageSize)
        if let requestedClose { connection.close(code: WebSocketCloseCode(rawValue: requestedClose.code), reason: requestedClose.reason) }
        phase = .connected(connection)
    }

    private func basicCredential(_ components: URLComponents) -> (String, String)? {
        if let user = components.user, !user.isEmpty { return (user, components.password ?? "") }
        guard let host = components.host, let scheme = components.scheme else { return nil }
        let space = ProtectionSpace(
            host: host, port: components.port ?? (scheme == "https" ? 443 : 80), protocol: scheme, realm: nil,
            authenticationMethod: "NSURLAuthenticationMethodHTTPBasic")
        return job.credentials?.defaultCredential(for: space).map { ($0.user, $0.password) }
    }

    /// The response head as the engine reports heads.
    static func responseHead(_ head: HTTPResponseHead) -> ResponseHead {
        var response = ResponseHead()
        response.httpVersion = "HTTP/1.1"
        response.statusCode = head.statusCode
        response.fields = head.fields
        return response
    }
}

@available(*, unavailable) extension WebSocketLink: Sendable {}
