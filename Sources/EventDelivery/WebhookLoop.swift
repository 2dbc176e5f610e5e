import Curl
import Foundation
import Logging
import TransferModels

/// The dispatcher's own libcurl loop (DESIGN.md: "Event delivery has its own CURLM loop"), a
/// `CurlMultiLoop` whose driver sends POSTs and hands their responses back.
///
/// Connections stay alive in the multi's connection cache between POSTs, and easy handles are reused,
/// so a busy destination costs one TCP (and TLS) handshake, not one per event.
final class WebhookLoop: Sendable {
    private let loop: CurlMultiLoop<WebhookSender>

    init(
        configuration: EventDeliveryConfiguration, logger: Logger,
        onResponse: @escaping @Sendable (WebhookResponse) -> Void
    ) throws(CurlError) {
        let sender = WebhookSender(configuration: configuration, onResponse: onResponse)
        loop = try CurlMultiLoop(name: "urlsessiond-webhooks", driver: sender, logger: logger) { multi throws(CurlError) in
            // Keep a connection per destination in use, with room to spare.
            try multi.setMaximumCachedConnections(max(16, configuration.maximumConcurrentDeliveries * 2))
        }
    }

    func start() { loop.start() }

    /// Queues a POST; its response comes back through `onResponse`, on the loop thread.
    func send(_ request: WebhookRequest) { loop.send(.send(request)) }

    /// Stops the loop: POSTs in flight are abandoned without a response (they are still undelivered in
    /// the store, so they are sent again later). Returns once the handles are released.
    func stop() async { await loop.stop(with: .stop) }
}

/// The webhook loop's driver: starts each POST on a pooled easy handle and reports how it ended.
final class WebhookSender: CurlMultiLoopDriver {
    enum Command: Sendable {
        case send(WebhookRequest)
        case stop
    }

    private let configuration: EventDeliveryConfiguration
    private let onResponse: @Sendable (WebhookResponse) -> Void
    private var running: [ObjectIdentifier: WebhookExchange] = [:]
    private var idleHandles: [CurlEasyHandle] = []
    private(set) var isFinished = false

    init(configuration: EventDeliveryConfiguration, onResponse: @escaping @Sendable (WebhookResponse) -> Void) {
        self.configuration = configuration
        self.onResponse = onResponse
    }

    func handle(_ command: Command, multi: CurlMultiHandle) {
        switch command {
        case .send(let request): start(request, multi: multi)
        case .stop: isFinished = true
        }
    }

    func willPerform(multi: CurlMultiHandle) {}

    func pollTimeout(endedTransfers: Int, multi: CurlMultiHandle) -> Duration? { .seconds(1) }

    func transferEnded(_ easy: CurlEasyHandle, result: CurlResult, multi: CurlMultiHandle) {
        multi.remove(easy)
        guard let exchange = running.removeValue(forKey: ObjectIdentifier(easy)) else { return }
        let response = exchange.response(result: result)
        idleHandles.append(easy)
        onResponse(response)
    }

    func loopWillEnd(multi: CurlMultiHandle) {
        for exchange in running.values { multi.remove(exchange.easy) }
        running.removeAll()
        idleHandles.removeAll()  // every easy handle is released before the multi (STYLE.md §3)
    }

    private func start(_ request: WebhookRequest, multi: CurlMultiHandle) {
        do throws(CurlError) {
            let easy: CurlEasyHandle
            if let idle = idleHandles.popLast() { easy = idle } else { easy = try CurlEasyHandle() }
            let exchange = try WebhookExchange(request: request, easy: easy, configuration: configuration)
            try multi.add(easy)
            running[ObjectIdentifier(easy)] = exchange
        } catch {
            onResponse(
                WebhookResponse(
                    token: request.token, status: 0, retryAfter: nil, body: [], curlCode: error.code, failure: error.message))
        }
    }
}
