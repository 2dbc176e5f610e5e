public import CoreMetrics
import Foundation
public import Logging
public import ServiceLifecycle
import TransferModels
public import TransferStore

/// Delivers the store's events as signed webhooks (Standard Webhooks v1): each session's delegate events
/// to its `delegate.url`, each `task.completion` event to its task's `completion.url`.
///
/// At least once, in `sequence` order per queue (one POST in flight per queue), many queues in parallel
/// (`maximumConcurrentDeliveries`). The outbox is the `event` table, so nothing that matters lives only in
/// memory: a restart re-reads the queues from their stored cursors (an event acknowledged in the last
/// few milliseconds before a crash may be sent again; receivers de-duplicate by `webhook-id`).
///
/// New events are noticed through `EventLog.eventFeed` hints, and by a periodic scan.
public final class WebhookDispatcher: Service, Sendable {
    private let store: TransferStore
    private let configuration: EventDeliveryConfiguration
    private let metrics: DeliveryMetrics
    private let logger: Logger
    /// Where transfers wait for the answers to their decision events.
    public let decisions: DecisionWaiters
    private let delivering = LockedBox(false)

    /// Delivers: its loop runs and no shutdown has begun (for readiness).
    public var isRunning: Bool { delivering.withLock { $0 } }

    public init(
        store: TransferStore, configuration: EventDeliveryConfiguration, decisions: DecisionWaiters = DecisionWaiters(),
        metricsFactory: any MetricsFactory, logger: Logger
    ) {
        self.store = store
        self.configuration = configuration
        self.decisions = decisions
        self.metrics = DeliveryMetrics(factory: metricsFactory)
        self.logger = logger
    }

    /// Delivers until graceful shutdown (or cancellation), then abandons what is in flight (it stays
    /// undelivered in the store) and writes the outcomes it learned.
    public func run() async throws {
        let inbox = DispatcherInbox()
        // Subscribed before the first scan, so no event committed from now on goes unnoticed. The hints
        // go straight into the inbox from the committing thread.
        let hints = store.events.eventFeed.onPublish { inbox.post(.hint($0)) }
        let delegateChanges = store.deliveries.delegateChanges.onPublish { inbox.post(.delegateChanged($0)) }
        defer {
            hints.cancel()
            delegateChanges.cancel()
        }
        let loop = try WebhookLoop(configuration: configuration, logger: logger) { inbox.post(.response($0)) }
        loop.start()
        delivering.withLock { $0 = true }
        defer { delivering.withLock { $0 = false } }
        let coordinator = DeliveryCoordinator(
            store: store, configuration: configuration, loop: loop, waiters: decisions, metrics: metrics, logger: logger)
        let tick = configuration.tickInterval
        let nextDue = coordinator.nextDue  // the only part of the coordinator another task reads
        logger.info("Webhook dispatcher started", metadata: ["webhook.timeout": "\(configuration.timeout)"])
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withDiscardingTaskGroup { group in
                    group.addTask {
                        // Ticks when something timed is due (at most every `tick`, at least every 250 ms).
                        while !Task.isCancelled {
                            let now = ContinuousClock.now
                            let due = nextDue.withLock { $0 }
                            let wake = max(now + tick, min(due, now + .milliseconds(250)))
                            guard (try? await Task.sleep(until: wake)) != nil else { break }
                            inbox.post(.tick)
                        }
                    }
                    await coordinator.run(inbox)
                    group.cancelAll()
                }
            } onCancel: {
                inbox.post(.stop)
            }
        } onGracefulShutdown: {
            self.delivering.withLock { $0 = false }
            inbox.post(.stop)
        }
        await loop.stop()
        logger.info("Webhook dispatcher stopped")
    }
}
