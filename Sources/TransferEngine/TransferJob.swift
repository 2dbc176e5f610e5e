public import Foundation
public import TransferModels

/// One attempt at a task's transfer: the task, and which of its attempts (each start of a task is a new
/// attempt, so a report of a stopped one is never taken for the next one's).
public struct TransferID: Hashable, Sendable, CustomStringConvertible {
    public var taskId: String
    public var attempt: Int

    public init(taskId: String, attempt: Int) {
        self.taskId = taskId
        self.attempt = attempt
    }

    public var description: String { "\(taskId)#\(attempt)" }
}

/// Everything the engine needs to run one task: the request and the session's rules, resolved.
public struct TransferJob: Sendable {
    public enum Kind: Sendable { case data, download, upload, webSocket, stream }

    public var id: TransferID
    public var sessionId: String
    /// Whose job it is: slots are shared fairly between tenants (see `FairQueue`).
    public var tenant = ""
    public var kind: Kind
    public var request: OutgoingRequest
    /// 0...1, higher first; FIFO within a priority.
    public var priority: Double
    /// `isDiscretionary`: runs only while the engine has spare capacity (less than half its transfers in
    /// use, no other job that could start waiting for a slot), after every other job.
    public var isDiscretionary = false
    /// Idle timeout: seconds without a byte in either direction.
    public var timeoutIntervalForRequest: Double
    /// Bound on the whole task, redirects included.
    public var timeoutIntervalForResource: Double
    public var httpMaximumConnectionsPerHost: Int
    /// Connections, DNS and TLS sessions are shared within a session only; ephemeral sessions share none.
    public var sharesConnections: Bool
    public var tlsMinimumVersion: String
    public var tlsMaximumVersion: String
    /// `serverTrust.pinnedPublicKeys` joined for `CURLOPT_PINNEDPUBLICKEY`; nil: no pins.
    public var pinnedPublicKeys: String?
    /// The session's trust bundle (the service's plus `serverTrust.anchors`); nil: the service's.
    public var certificateAuthoritiesFile: String?
    /// `connectionProxyDictionary` as a libcurl proxy URL (nil: no proxy, environment ignored).
    public var proxy: String?
    /// Hosts that bypass the proxy (`ExceptionsList`, or the operator's `NO_PROXY`-style list).
    public var noProxy: String?
    /// The SOCKS proxy's login (`SOCKSUser`, `SOCKSPassword`); nil: none.
    public var proxyLogin: ProxyLogin?
    /// The network path the transfer leaves by; nil: the default route, unbound.
    public var networkPath: TransferNetworkPath?
    /// The TOS byte of its sockets (`networkServiceType`'s DSCP); nil: the system's default.
    public var trafficClass: Int32?
    /// `multipathServiceType`: not `none` opens its sockets as Multipath TCP, and a transfer whose connection
    /// has another subflow outlives its path going down (`TransferScheduler.losePath`).
    public var multipathServiceType: MultipathServiceType = .none
    /// Held while the job exists, so the kernel's path manager stays set for its type (`MultipathEndpoints`).
    public var multipathLease: (any Sendable)?
    /// Where a download's bytes go (`<id>.part`, renamed by the caller when complete).
    public var downloadPath: String?
    /// The delegate decides whether a redirect is followed (`task.willPerformHTTPRedirection`): the
    /// transfer waits for `TransferEngine.resolveRedirect`.
    public var decidesRedirects = false
    /// The delegate decides about the final response before its body (`dataTask.didReceiveResponse`):
    /// the body waits, paused, for `TransferEngine.resolveResponse`.
    public var decidesResponse = false
    /// The delegate answers challenges (`task.didReceiveChallenge` or `session.didReceiveChallenge`): a
    /// 401, 407 or TLS challenge waits for `TransferEngine.resolveChallenge`.
    public var decidesChallenges = false
    /// The delegate answers the TLS challenges (server trust, client certificates) too: every new https
    /// connection is stopped before its request to ask (a handshake more per connection).
    public var decidesSessionChallenges = false
    /// The session's cookies for this transfer: asked for every request it sends (redirects included)
    /// and told of every response head, so a cookie set on a 302 goes with the next hop. nil: no cookie
    /// is sent or kept (`httpShouldSetCookies` or `httpShouldHandleCookies` false, or no storage).
    public var cookies: (any TransferCookies)?
    /// The session's credential storage: the default handling of an HTTP challenge answers with the
    /// default credential stored for its protection space (once; a credential that failed is not sent
    /// again). nil: no storage.
    public var credentials: (any TransferCredentials)?
    /// A download picked up again: the bytes already in `downloadPath` (asked for with `Range`), and
    /// the validator that must still hold for them (`If-Range`: a strong ETag or Last-Modified).
    public var resumeOffset: Int64 = 0
    public var ifRange: String?
    /// A download fetched over several connections when the origin allows (`segments`); nil: one.
    public var segments: SegmentPolicy?
    /// The task's own `rateLimit` and its session's (`configuration.rateLimit`); nil: none at that level.
    public var rateLimit: RateLimit?
    public var sessionRateLimit: RateLimit?
    /// A download's mirrors (`mirrors`, or a Metalink's URLs), the request's URL first; nil: none.
    public var mirrors: MirrorSources?
    /// The request fetches a Metalink document (`metalink.url`); the file comes from its mirrors after.
    public var readsMetalink = false
    /// A segmented download picked up again: its journal, each part continued by `Range` + `If-Range`
    /// (set instead of `resumeOffset`, whose file size means nothing for a file fetched in parts).
    public var resumeSegments: SegmentedResume?
    /// What the session's URL cache holds for the request, when the cache policy uses it: served without
    /// the network, or validated (a 304 is answered from it). Never set with `resumeOffset`.
    public var storedResponse: StoredTransferResponse?
    /// A WebSocket job (`kind == .webSocket`): the subprotocols offered and `maximumMessageSize`. Its
    /// request's URL is `ws`/`wss`; the connection is made for the `http`/`https` URL it stands for.
    public var webSocket: WebSocketTaskOptions?
    /// A stream job (`kind == .stream`): the host and port its connection goes to (its request's URL is
    /// `http://host:port`, what the session's proxy, path and egress rules are applied to).
    public var stream: StreamTaskOptions?

    public init(id: TransferID, sessionId: String, kind: Kind, request: OutgoingRequest) {
        self.id = id
        self.sessionId = sessionId
        self.kind = kind
        self.request = request
        self.priority = 0.5
        self.timeoutIntervalForRequest = 60
        self.timeoutIntervalForResource = 604_800
        self.httpMaximumConnectionsPerHost = 6
        self.sharesConnections = true
        self.tlsMinimumVersion = "TLSv12"
        self.tlsMaximumVersion = "TLSv13"
    }
}

/// A cookie storage as a transfer uses it, on the engine's loop thread: quick, no I/O.
public protocol TransferCookies: Sendable {
    /// The `Cookie` header for a request to `url`; nil when no cookie applies.
    func cookieHeader(for url: String) -> String?
    /// A response from `url` carried these `Set-Cookie` values, in order.
    func received(_ setCookies: [String], from url: String)
}

/// A credential storage as a transfer uses it, on the engine's loop thread: quick, no I/O.
public protocol TransferCredentials: Sendable {
    /// The default credential stored for `space` (`defaultCredential(for:)`); nil when none is.
    func defaultCredential(for space: ProtectionSpace) -> (user: String, password: String)?
    /// The client identity stored for `https://host:port` (its space's default); nil when none is.
    func clientIdentity(host: String, port: Int) -> ClientIdentity?
    /// The server-trust exceptions stored for `https://host:port`.
    func trustExceptions(host: String, port: Int) -> [TrustException]
}

/// A TLS client identity: certificate chain and private key, PEM.
public struct ClientIdentity: Sendable, Hashable, Codable {
    public var certificateChain: String
    public var privateKey: String
    public var passphrase: String?

    public init(certificateChain: String, privateKey: String, passphrase: String?) {
        (self.certificateChain, self.privateKey, self.passphrase) = (certificateChain, privateKey, passphrase)
    }
}

/// What the engine reports about a running transfer, in order, from its loop thread.
///
/// Implementations must return quickly and never block: they hand the event to a queue.
public protocol TransferObserver: AnyObject, Sendable {
    /// The final response head arrived (before its body). `body` is a data or upload task's body, which
    /// can be read while it arrives; a later response (a retry's, the next part's) replaces it, and the
    /// replaced one ends as `discarded`. One report for both: the task layer records them under one lock.
    func transfer(_ id: TransferID, didReceive response: ResponseHead, for request: OutgoingRequest, body: GrowingBody?)
    /// An informational (1xx) response other than `100 Continue` arrived, e.g. `103 Early Hints`.
    func transfer(_ id: TransferID, didReceiveInformational response: ResponseHead, for request: OutgoingRequest)
    /// The engine is about to follow a redirect (URLSession's rules already applied).
    func transfer(_ id: TransferID, willRedirect response: ResponseHead, to request: OutgoingRequest)
    func transfer(_ id: TransferID, didProgress progress: TransferProgress)
    func transfer(_ id: TransferID, didComplete outcome: TransferOutcome)
    /// The transfer waits for `TransferEngine.resolveRedirect` (only for jobs that `decidesRedirects`).
    func transfer(_ id: TransferID, asksToRedirect response: ResponseHead, to request: OutgoingRequest)
    /// The body waits for `TransferEngine.resolveResponse` (only for jobs that `decidesResponse`).
    func transfer(_ id: TransferID, asksAbout response: ResponseHead, for request: OutgoingRequest)
    /// The transfer waits for `TransferEngine.resolveChallenge` (only for jobs that `decidesChallenges`).
    func transfer(_ id: TransferID, asksAbout challenge: AuthenticationChallenge)
    /// A download with a `resumeOffset` continues at `offset` (206) or starts again at 0 (200).
    func transfer(_ id: TransferID, didResumeAtOffset offset: Int64, expectedTotalBytes: Int64)
    /// A part of a `multipart/x-mixed-replace` response ended with these counts: every byte of it is to be
    /// reported now, before the next part's response.
    func transfer(_ id: TransferID, didReceiveAllOfPart progress: TransferProgress)
    /// A WebSocket job's server accepted the upgrade (`webSocketTask.didOpenWithProtocol`): `channel`
    /// carries messages both ways from now on. Its response head was reported first (`didReceive`).
    func transfer(_ id: TransferID, didOpenWebSocket channel: WebSocketChannel, protocol: String?)
    /// A WebSocket job received a message (it is in the channel's buffer too).
    func transfer(_ id: TransferID, didReceiveWebSocketMessage message: WebSocketMessageObject)
    /// A stream job's connection is being opened: `channel` takes reads and writes from now on (they wait
    /// for the connection, as URLSessionStreamTask's queue).
    func transfer(_ id: TransferID, didOpenStream channel: StreamChannel)
    /// A stream job's read side (the peer's end was read) or write side (`closeWrite` done) ended.
    func transfer(_ id: TransferID, streamDidEnd side: StreamSide)
    /// An open WebSocket or stream connection's byte counts while it lasts (`countOfBytesSent` and
    /// `countOfBytesReceived`), at most every quarter second; no progress event goes with them.
    func transfer(_ id: TransferID, didCount progress: TransferProgress)
    /// A download stopped using mirror `url` (`task.didDropMirror`).
    func transfer(_ id: TransferID, didDropMirror url: String, reason: String)
    /// Piece `index` fetched from `mirror` failed its hash and is fetched again (`task.didRejectPiece`).
    func transfer(_ id: TransferID, didRejectPiece index: Int, mirror: String)
    /// A `metalink.url` document was read: the download goes on from its mirrors.
    func transfer(_ id: TransferID, didReadMetalink contents: MetalinkContents)
}

/// A side of a stream task's connection.
public enum StreamSide: Sendable {
    case read, write
}

extension TransferObserver {
    public func transfer(_ id: TransferID, asksToRedirect response: ResponseHead, to request: OutgoingRequest) {}
    public func transfer(_ id: TransferID, asksAbout response: ResponseHead, for request: OutgoingRequest) {}
    public func transfer(_ id: TransferID, asksAbout challenge: AuthenticationChallenge) {}
    public func transfer(_ id: TransferID, didResumeAtOffset offset: Int64, expectedTotalBytes: Int64) {}
    public func transfer(_ id: TransferID, didReceiveInformational response: ResponseHead, for request: OutgoingRequest) {}
    public func transfer(_ id: TransferID, didReceiveAllOfPart progress: TransferProgress) {
        transfer(id, didProgress: progress)
    }
    public func transfer(_ id: TransferID, didOpenWebSocket channel: WebSocketChannel, protocol: String?) {}
    public func transfer(_ id: TransferID, didReceiveWebSocketMessage message: WebSocketMessageObject) {}
    public func transfer(_ id: TransferID, didOpenStream channel: StreamChannel) {}
    public func transfer(_ id: TransferID, streamDidEnd side: StreamSide) {}
    public func transfer(_ id: TransferID, didCount progress: TransferProgress) {}
    public func transfer(_ id: TransferID, didDropMirror url: String, reason: String) {}
    public func transfer(_ id: TransferID, didRejectPiece index: Int, mirror: String) {}
    public func transfer(_ id: TransferID, didReadMetalink contents: MetalinkContents) {}
}

/// The delegate's answer to `willPerformHTTPRedirection`.
public enum RedirectDisposition: Sendable {
    /// Send this request (the proposed one, or the delegate's own).
    case follow(OutgoingRequest)
    /// Do not follow: the redirect response is the task's final response.
    case reject
}

/// The delegate's answer to `dataTask.didReceiveResponse`.
public enum ResponseDisposition: Sendable {
    case allow
    /// The task ends as cancelled (-999).
    case cancel
    /// The body goes to a file at `path` instead: the task became a download.
    case becomeDownload(path: String)
}

public struct TransferProgress: Sendable, Hashable {
    public var bytesSent: Int64
    public var bytesExpectedToSend: Int64
    /// Body bytes delivered (decoded).
    public var bytesReceived: Int64
    /// -1 when unknown or content-encoded.
    public var bytesExpectedToReceive: Int64
}

/// How a transfer ended.
public struct TransferOutcome: Sendable {
    /// The last response (nil when none arrived).
    public var response: ResponseHead?
    /// The request that got it (after redirects).
    public var currentRequest: OutgoingRequest
    public var error: TransferFailure?
    public var progress: TransferProgress
    /// A data task's body: in memory, or spilled to this file.
    public var body: TransferBody
    /// One entry per request sent (redirects included).
    public var transactions: [TransactionTiming]
    /// A WebSocket job's close code and reason (`closeCode`, `closeReason`); nil for the other kinds.
    public var webSocketClose: WebSocketClose? = nil
}

public enum TransferBody: Sendable {
    case none
    case bytes([UInt8])
    case file(path: String, length: Int64)
}

/// A failed transfer: the URL error code and the libcurl cause.
public struct TransferFailure: Sendable, Hashable {
    public var code: Int
    public var curlCode: Int
    public var message: String
    /// `reason` in the error's userInfo (`egressPolicy`).
    public var reason: String?
    /// Set for a failure that is not a URL error: URLSession reports a WebSocket message over
    /// `maximumMessageSize` as `NSPOSIXErrorDomain` 40 (`EMSGSIZE`), and so does this one.
    public var posixCode: Int32? = nil
}

/// `URLSessionTaskTransactionMetrics` raw material from `CURLINFO_*`.
public struct TransactionTiming: Sendable, Hashable {
    /// The request as sent (after redirects and URLSession's rules), and the response head it got.
    public var request: OutgoingRequest
    public var response: ResponseHead?
    public var url: String
    public var method: String
    public var statusCode: Int
    public var fetchStart: Date
    /// Seconds from `fetchStart` (CURLINFO_*_TIME_T in microseconds, converted).
    public var nameLookup: Double
    public var connect: Double
    public var appConnect: Double
    public var preTransfer: Double
    public var startTransfer: Double
    public var total: Double
    public var httpVersion: Int
    public var remoteAddress: String?
    public var remotePort: Int
    public var localAddress: String?
    public var localPort: Int
    public var requestHeaderBytes: Int64
    public var requestBodyBytes: Int64
    public var responseHeaderBytes: Int64
    public var responseBodyBytes: Int64
    public var isReusedConnection: Bool
    /// The response came from the session's URL cache, not the network (`resourceFetchType: localCache`).
    public var isFromLocalCache = false
    /// The path the request left by, and whether it went through a proxy.
    public var networkPath: TransferNetworkPath?
    public var isProxyConnection = false
    /// The connection had Multipath TCP subflows beyond its first when the request ended (`MPTCP_INFO`).
    public var isMultipath = false
    /// A range request of a segmented download (a part of the body, not a response of its own).
    public var isSegmentRange = false
}

/// A network path as a transfer uses it: what to bind (`CURLOPT_INTERFACE`) and what its metrics say.
public struct TransferNetworkPath: Sendable, Hashable {
    public var name: String
    /// `if!eth0` or `host!10.0.0.2`; nil: the default route.
    public var curlInterface: String?
    /// The interface (or source address) metrics name.
    public var interface: String?
    public var isCellular: Bool
    public var isExpensive: Bool
    public var isConstrained: Bool

    public init(name: String, curlInterface: String?, interface: String?, isCellular: Bool, isExpensive: Bool, isConstrained: Bool) {
        (self.name, self.curlInterface, self.interface) = (name, curlInterface, interface)
        (self.isCellular, self.isExpensive, self.isConstrained) = (isCellular, isExpensive, isConstrained)
    }
}
