import Curl
import Foundation
import Logging
import TransferModels
import WebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// The engine's connect-only connections, WebSocket and stream tasks' (`WebSocketLoop+Streams`): one thread
/// that `poll`s every open connection's socket and a wake-up pipe other threads write to after queueing a
/// command (start, cancel, close, send, ping, resume reading; a stream's writes and closes).
/// libcurl's connect is blocking in CONNECT_ONLY mode, so each connection is opened on a short-lived
/// connect thread (at most `maximumConnecting` at once) and handed back to the loop with a command: a slow
/// connect never holds the loop up. Connections open at once are bounded by `maximumWebSockets`; jobs
/// beyond wait in order.
///
/// `@unchecked Sendable`: off the loop thread only `send(_:)` is called (the inbox is locked, a pipe
/// write is thread-safe); `links`, `queued` and `connecting` are touched on the loop thread alone.
public final class WebSocketLoop: @unchecked Sendable {
    enum Command: Sendable {
        case start(TransferJob)
        /// The connect thread is done with the link's transport (nil: connected).
        case connected(TransferID, TransferFailure?)
        case cancel(TransferID)
        case close(TransferID, WebSocketClose)
        case send(TransferID, WebSocketMessageObject, token: UInt64)
        case ping(TransferID, token: UInt64)
        case resumeReading(TransferID)
        case pathLost(String)
        /// What the API asked of a stream task's connection (`StreamChannel`).
        case stream(TransferID, StreamCommand)
        case stop
    }

    static let maximumConnecting = 8
    /// Bytes read from one connection per turn, so one fast peer cannot keep the others waiting (nor fill
    /// its buffer past the limit in one read).
    static let readPerTurn = 256 * 1024

    let configuration: EngineConfiguration
    let observer: any TransferObserver
    let logger: Logger
    private let inbox = LockedBox<[Command]>([])
    /// Polled beside the sockets; `send` wakes it.
    private let wakePipe = WakePipe()
    private let whenEnded = LockedBox<(@Sendable () -> Void)?>(nil)
    var links: [TransferID: WebSocketLink] = [:]
    var streams: [TransferID: StreamLink] = [:]
    var queued: [TransferJob] = []
    var connecting = 0
    var isStopping = false
    /// When the open connections' byte counts were last reported (`reportCounts`).
    var countsReportedAt = ContinuousClock.now
    /// The counts last reported, by connection.
    var reportedCounts: [TransferID: (sent: Int64, received: Int64)] = [:]

    init(configuration: EngineConfiguration, observer: any TransferObserver, logger: Logger) {
        self.configuration = configuration
        self.observer = observer
        self.logger = logger
    }

    func start() {
        ServiceThread.start(name: "urlsessiond-websockets") { [self] in run() }
    }

    /// Queues a command and wakes the loop.
    func send(_ command: Command) {
        inbox.withLock { $0.append(command) }
        wakePipe.wake()
    }

    /// Closes every connection (going away) and returns once the loop ended.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenEnded.withLock { $0 = { continuation.resume() } }
            send(.stop)
        }
    }

    private func run() {
        while true {
            for command in inbox.withLock({ inbox in
                defer { inbox = [] }
                return inbox
            }) { handle(command) }
            if isStopping { break }
            startQueued()
            checkDeadlines()
            checkStreamDeadlines()
            var descriptors = [pollfd(fd: wakePipe.descriptor, events: Int16(POLLIN), revents: 0)]
            var polled: [WebSocketLink] = []
            var again = false
            for link in links.values {
                guard let connection = link.connection, let socket = connection.socket else { continue }
                let reads = link.channel?.acceptsMessages ?? true
                if reads && connection.mayHaveMore { again = true }
                let events = (reads ? Int16(POLLIN) : 0) | (connection.hasPendingOutput ? Int16(POLLOUT) : 0)
                descriptors.append(pollfd(fd: socket, events: events, revents: 0))
                polled.append(link)
            }
            let polledStreams = pollStreams(into: &descriptors, again: &again)
            _ = poll(&descriptors, nfds_t(descriptors.count), again ? 0 : pollTimeout())
            if descriptors[0].revents != 0 { wakePipe.drain() }
            for (index, link) in polled.enumerated() {
                let ready = descriptors[index + 1].revents != 0
                if ready || link.connection?.mayHaveMore == true { service(link) }
            }
            serviceStreams(polledStreams, events: descriptors.suffix(polledStreams.count).map(\.revents))
            reportCounts()
        }
        for link in Array(links.values) { endAtShutdown(link) }
        for link in Array(streams.values) { endStream(link, failure: Self.connectionLost(link.job, "the service is stopping")) }
        for job in queued { observer.transfer(job.id, didComplete: Self.outcome(job, failure: Self.cancelled(job))) }
        queued = []
        whenEnded.withLock { $0 }?()
    }

    /// Until the nearest handshake or close deadline; at most a second.
    private func pollTimeout() -> Int32 {
        let now = ContinuousClock.now
        var nearest = now + .seconds(1)
        for link in links.values {
            if link.channel == nil, link.handshakeDeadline < nearest { nearest = link.handshakeDeadline }
            if let deadline = link.closeDeadline, deadline < nearest { nearest = deadline }
        }
        for link in streams.values { if let deadline = link.nearestDeadline, deadline < nearest { nearest = deadline } }
        let wait = nearest - now
        return Int32(max(0, min(1000, wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)))
    }

    private func handle(_ command: Command) {
        switch command {
        case .start(let job):
            queued.append(job)
        case .connected(let id, let failure):
            connecting -= 1
            if let stream = streams[id] { return streamConnected(stream, failure: failure) }
            guard let link = links[id] else { return }
            connected(link, failure: failure)
        case .cancel(let id):
            if let index = queued.firstIndex(where: { $0.id == id }) {
                let job = queued.remove(at: index)
                observer.transfer(id, didComplete: Self.outcome(job, failure: Self.cancelled(job)))
            } else if let link = links[id] {
                cancel(link)
            } else if let stream = streams[id] {
                cancelStream(stream)
            }
        case .close(let id, let close):
            if let index = queued.firstIndex(where: { $0.id == id }) {
                let job = queued.remove(at: index)
                observer.transfer(id, didComplete: Self.outcome(job, failure: Self.cancelled(job)))
            } else if let link = links[id] {
                closeHandshake(link, close)
            }
        case .send(let id, let message, let token):
            guard let link = links[id], let connection = link.connection, connection.state == .open else {
                return links[id]?.channel?.resolveSend(token, .notOpen) ?? ()
            }
            let sent: WebSocketMessage = message.string.map { .string($0) } ?? .data(message.data ?? [])
            connection.send(sent)
            link.bytesSent += Int64(message.length)
            link.unflushedSends.append(token)
            service(link)
        case .ping(let id, let token):
            guard let link = links[id], let connection = link.connection, connection.state == .open else {
                return links[id]?.channel?.resolvePing(token, .notOpen) ?? ()
            }
            connection.sendPing(withUnsafeBytes(of: token.bigEndian) { Array($0) })
            service(link)
        case .resumeReading(let id):
            if let link = links[id] { service(link) }
        case .pathLost(let name):
            for link in Array(links.values) where link.job.networkPath?.name == name && link.connection != nil {
                end(link, failure: Self.connectionLost(link.job, "the network path \(name) went down"))
            }
            for link in Array(streams.values) where link.job.networkPath?.name == name && link.isConnected {
                endStream(link, failure: Self.connectionLost(link.job, "the network path \(name) went down"))
            }
        case .stream(let id, let command):
            if let link = streams[id] { handle(command, of: link) }
        case .stop:
            isStopping = true
        }
    }

    /// Starts queued jobs while connect threads and connection slots allow.
    private func startQueued() {
        while !queued.isEmpty, connecting < Self.maximumConnecting, links.count + streams.count < configuration.maximumWebSockets {
            let job = queued.removeFirst()
            let handoff: ConnectHandoff
            do {
                if job.kind == .stream {
                    let link = try StreamLink(job: job, configuration: configuration) { [weak self] in self?.send(.stream(job.id, $0)) }
                    streams[job.id] = link
                    observer.transfer(job.id, didOpenStream: link.channel)
                    handoff = ConnectHandoff(transport: link.transport, job: job, url: link.url, egress: link.egress)
                } else {
                    let link = try WebSocketLink(job: job, configuration: configuration)
                    links[job.id] = link
                    handoff = ConnectHandoff(transport: link.transport, job: job, url: link.httpURL, egress: link.egress)
                }
            } catch {
                let failure = TransferFailure(code: URLErrorCode.unknown.rawValue, curlCode: 0, message: "\(error)")
                observer.transfer(job.id, didComplete: Self.outcome(job, failure: failure))
                continue
            }
            connecting += 1
            ServiceThread.start(name: "urlsessiond-ws-connect", stackSize: 1 << 19) { [self] in
                send(.connected(job.id, handoff.connect()))
            }
        }
    }
}

/// The connection the connect thread owns while it connects (a WebSocket's or a stream's).
///
/// `@unchecked Sendable`: the loop does not touch the link's transport while it is connecting, and
/// the connect thread touches nothing else; the command it sends back hands the transport over again.
private struct ConnectHandoff: @unchecked Sendable {
    let transport: CurlConnection
    let job: TransferJob
    /// The `http`/`https` URL libcurl connects to.
    let url: String
    let egress: EgressPolicy

    /// Connects, and says why not: the egress policy (at connect time, and for the target a proxy would
    /// reach), or libcurl's failure as a URL error.
    func connect() -> TransferFailure? {
        if job.proxy != nil, let host = URLComponents(string: url)?.host, !host.isEmpty,
            !ProxyExceptions.exempts(host, list: job.noProxy)
        {
            let target = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if case .denied(let reason) = ProxiedTargetCheck.blockingVerdict(target, policy: egress) {
                return TransferFailure(
                    code: URLErrorCode.cannotConnectToHost.rawValue, curlCode: 7,
                    message: "the egress policy forbids \(target) through the proxy: \(reason)", reason: "egressPolicy")
            }
        }
        let result = transport.connect()
        guard !result.isSuccess else { return nil }
        let easy = transport.handle
        if let denial = easy.egressDenial, result == .couldNotConnect {
            return TransferFailure(
                code: URLErrorCode.cannotConnectToHost.rawValue, curlCode: result.code, message: denial, reason: "egressPolicy")
        }
        let code = URLErrorMapping.code(
            forCurlCode: result.code, context: URLErrorMapping.Context(sslVerifyResult: easy.info(.sslVerifyResult)))
        return TransferFailure(code: code.rawValue, curlCode: result.code, message: easy.errorMessage(for: result))
    }
}
