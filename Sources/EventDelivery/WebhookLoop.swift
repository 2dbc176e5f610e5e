internal import CCurl
import Foundation
import Logging
import TransferEngine
import TransferModels

/// The dispatcher's own libcurl multi loop (DESIGN.md: "Event delivery has its own CURLM loop"): one
/// thread owns the `CURLM` and every `CURL`, and repeats perform → info_read → poll.
///
/// Others only append to the locked inbox and wake the loop. Connections stay alive in the multi's
/// connection cache between POSTs, and easy handles are reused, so a busy destination costs one TCP
/// (and TLS) handshake, not one per event.
final class WebhookLoop: @unchecked Sendable {
    // `@unchecked Sendable`: `inbox` and `whenStopped` are locked; `multi.wakeUp()` is thread-safe;
    // everything else is touched only on `thread` after `start()`.
    private enum Command {
        case send(WebhookRequest)
        case stop
    }

    private let configuration: EventDeliveryConfiguration
    private let logger: Logger
    private let onResponse: @Sendable (WebhookResponse) -> Void
    private let multi: CurlMultiHandle
    private let inbox = LockedBox<[Command]>([])
    private var running: [UnsafeMutableRawPointer: WebhookExchange] = [:]
    private var idleHandles: [CurlEasyHandle] = []
    private var isStopping = false
    private let whenStopped = LockedBox<(@Sendable () -> Void)?>(nil)

    init(
        configuration: EventDeliveryConfiguration, logger: Logger,
        onResponse: @escaping @Sendable (WebhookResponse) -> Void
    ) throws(CurlError) {
        self.configuration = configuration
        self.logger = logger
        self.onResponse = onResponse
        self.multi = try CurlMultiHandle()
        // Keep a connection per destination in use, with room to spare.
        try multi.set(CURLMOPT_MAXCONNECTS, max(16, configuration.maximumConcurrentDeliveries * 2))
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "urlsessiond-webhooks"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Queues a POST; its response comes back through `onResponse`, on the loop thread.
    func send(_ request: WebhookRequest) {
        inbox.withLock { $0.append(.send(request)) }
        multi.wakeUp()
    }

    /// Stops the loop: POSTs in flight are abandoned without a response (they are still undelivered in
    /// the store, so they are sent again later). Returns once the handles are released.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenStopped.withLock { $0 = { continuation.resume() } }
            inbox.withLock { $0.append(.stop) }
            multi.wakeUp()
        }
    }

    private func run() {
        while !isStopping {
            for command in inbox.withLock({ commands in defer { commands.removeAll() }; return commands }) {
                switch command {
                case .send(let request): start(request)
                case .stop: isStopping = true
                }
            }
            if isStopping { break }
            do {
                _ = try multi.perform()
                for (easy, result) in multi.completedTransfers() { finish(easy, result: result) }
                try multi.poll(timeoutMilliseconds: 1000)
            } catch {
                logger.error("Webhook loop error", metadata: ["error": "\(error)"])
            }
        }
        for exchange in running.values { multi.remove(exchange.easy) }
        running.removeAll()
        idleHandles.removeAll()  // every easy handle is released before the multi (STYLE.md §3)
        multi.close()
        whenStopped.withLock { $0 }?()
    }

    private func start(_ request: WebhookRequest) {
        do throws(CurlError) {
            let easy: CurlEasyHandle
            if let idle = idleHandles.popLast() { easy = idle } else { easy = try CurlEasyHandle() }
            let exchange = try WebhookExchange(request: request, easy: easy, configuration: configuration)
            try multi.add(easy)
            running[easy.raw] = exchange
        } catch {
            onResponse(WebhookResponse(
                token: request.token, status: 0, retryAfter: nil, body: [], curlCode: error.code,
                failure: error.message))
        }
    }

    private func finish(_ easy: UnsafeMutableRawPointer, result: CURLcode) {
        guard let exchange = running.removeValue(forKey: easy) else { return }
        multi.remove(exchange.easy)
        let response = exchange.response(result: result)
        idleHandles.append(exchange.easy)
        onResponse(response)
    }
}
