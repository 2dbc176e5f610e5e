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

    /// Queues a chain of POSTs; their responses come back through `onResponse`, on the loop thread.
    func send(_ chain: WebhookChain) { loop.send(.send(chain)) }

    /// Sends nothing more of the chain with `token` after the POST in flight (whose response still comes).
    func endChain(_ token: Int) { loop.send(.endChain(token)) }

    /// Stops the loop: POSTs in flight are abandoned without a response (they are still undelivered in
    /// the store, so they are sent again later). Returns once the handles are released.
    func stop() async { await loop.stop(with: .stop) }
}

/// The webhook loop's driver: starts each chain on a pooled easy handle, sends its next POST as soon as one
/// is answered 2xx, and reports how each ended.
final class WebhookSender: CurlMultiLoopDriver {
    enum Command: Sendable {
        case send(WebhookChain)
        case endChain(Int)
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
        case .send(let chain): start(chain, multi: multi)
        case .endChain(let token):
            for exchange in running.values where exchange.token == token { exchange.following = [] }
        case .stop: isFinished = true
        }
    }

    func willPerform(multi: CurlMultiHandle) {}

    func pollTimeout(endedTransfers: Int, multi: CurlMultiHandle) -> Duration? { .seconds(1) }

    func transferEnded(_ easy: CurlEasyHandle, result: CurlResult, multi: CurlMultiHandle) {
        multi.remove(easy)
        guard let exchange = running.removeValue(forKey: ObjectIdentifier(easy)) else { return }
        var response = exchange.response(result: result)
        if response.isAcknowledged, !exchange.following.isEmpty,
            ContinuousClock.now - exchange.signedAt < configuration.chainLifetime
        {
            response.chainGoesOn = true
            do throws(CurlError) {
                let next = try WebhookExchange(after: exchange)
                try multi.add(easy)
                running[ObjectIdentifier(easy)] = next
                onResponse(response)
                return
            } catch {
                onResponse(response)
                response = failure(token: exchange.token, error)
            }
        }
        idleHandles.append(easy)
        onResponse(response)
    }

    func loopWillEnd(multi: CurlMultiHandle) {
        for exchange in running.values { multi.remove(exchange.easy) }
        running.removeAll()
        idleHandles.removeAll()  // every easy handle is released before the multi (STYLE.md §3)
    }

    private func start(_ chain: WebhookChain, multi: CurlMultiHandle) {
        guard !chain.requests.isEmpty else { return }
        do throws(CurlError) {
            let easy: CurlEasyHandle
            if let idle = idleHandles.popLast() { easy = idle } else { easy = try CurlEasyHandle() }
            let exchange = try WebhookExchange(chain: chain, easy: easy, configuration: configuration)
            try multi.add(easy)
            running[ObjectIdentifier(easy)] = exchange
        } catch {
            onResponse(failure(token: chain.token, error))
        }
    }

    /// A POST that could not be started: it ends its chain, as a failed transfer does.
    private func failure(token: Int, _ error: CurlError) -> WebhookResponse {
        WebhookResponse(token: token, status: 0, retryAfter: nil, body: [], curlCode: error.code, failure: error.message)
    }
}
