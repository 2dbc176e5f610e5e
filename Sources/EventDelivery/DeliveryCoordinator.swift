import Foundation
import Logging
import TransferModels
import TransferStore

/// The dispatcher's brain, run by one task: it finds queues with work, reads their events ahead in
/// batches, sends each queue's head through the loop, and writes what happened back in batches.
///
/// Not `Sendable` and never shared: every method runs on the task that calls `run`, so its state needs no
/// lock. It only talks to other threads through the loop's inbox and its own `DispatcherInbox`.
final class DeliveryCoordinator {
    let store: TransferStore
    let configuration: EventDeliveryConfiguration
    let loop: WebhookLoop
    let waiters: DecisionWaiters
    let metrics: DeliveryMetrics
    let logger: Logger

    var lanes: [LaneKey: DeliveryLane] = [:]
    /// The POSTs in flight.
    var inFlight = InFlightPosts()
    /// Lanes waiting: for a free slot, for a read, or asleep until their retry.
    var waiting = WaitingLanes()
    /// What the store has not been told yet, and the write under way.
    var writes = PendingWrites()
    /// Sessions whose lanes are treated apart: disabled, held, re-addressed, refreshed.
    var marks = SessionMarks()
    /// The sessions this node delivers when nodes share the database.
    var leases: DeliveryLeases
    /// When the store was last scanned and idle lanes forgotten, and whether a scan is wanted.
    var chores = StoreChores()
    var inbox: DispatcherInbox?
    /// When the coordinator next has something timed to do (a retry, a flush, a scan), for the ticker:
    /// an idle dispatcher is woken a few times a second, not a hundred.
    let nextDue = LockedBox(ContinuousClock.now)

    init(
        store: TransferStore, configuration: EventDeliveryConfiguration, loop: WebhookLoop, waiters: DecisionWaiters,
        metrics: DeliveryMetrics, logger: Logger
    ) {
        self.store = store
        self.configuration = configuration
        self.loop = loop
        self.waiters = waiters
        self.metrics = metrics
        self.logger = logger
        self.leases = DeliveryLeases(isEnabled: store.sharesDatabaseWithOtherNodes, duration: configuration.leaseDuration)
    }

    /// Runs until `.stop` (or the inbox ends), then answers waiting decisions and writes what it learned.
    func run(_ inbox: DispatcherInbox) async {
        self.inbox = inbox
        await serviceStore()
        pump()
        publishNextDue()
        for await _ in inbox.stream {
            var isStopping = false
            for signal in inbox.drain() where handle(signal) == .stop { isStopping = true }
            if isStopping || Task.isCancelled { break }
            await serviceStore()
            pump()
            publishNextDue()
        }
        for (key, _) in inFlight.tokens.values {
            if let head = lanes[key]?.pending.first, head.isDecision {
                waiters.deliver(.noAnswer, eventId: head.event.id, sessionId: key.sessionId)
            }
        }
        await writes.task?.value
        for signal in inbox.drain() {
            if case .flushed(let unwritten?) = signal { writes.outcomes.absorb(older: unwritten) }
        }
        writes.task = nil
        await flush()
        await writes.task?.value
        await releaseAllLeases()
    }

    /// Whether the coordinator goes on after a signal.
    private enum Continuation { case `continue`, stop }

    @discardableResult
    private func handle(_ signal: DispatcherSignal) -> Continuation {
        switch signal {
        case .hint(EventFeed.everySession):
            // Hints were lost: every lane may have more, and queues unknown here are scanned for.
            chores.scanWanted = true
            for key in lanes.keys {
                lanes[key]?.mayHaveMore = true
                if lanes[key]?.pending.isEmpty == true { advance(key) }
            }
        case .hint(let sessionId):
            var known = true
            for kind in [LaneKey.Kind.delegate, .completion] {
                let key = LaneKey(sessionId: sessionId, kind: kind)
                guard lanes[key] != nil else {
                    known = false
                    continue
                }
                lanes[key]?.mayHaveMore = true
                if lanes[key]?.pending.isEmpty == true { advance(key) }  // otherwise it is on its way already
            }
            if !known && !leases.isElsewhere(sessionId) { chores.scanWanted = true }
        case .delegateChanged(EventFeed.everySession):
            let delegateLanes = lanes.keys.filter { $0.kind == .delegate }
            marks.refreshing.formUnion(delegateLanes.map(\.sessionId))
            for key in delegateLanes { endChain(of: key) }
        case .delegateChanged(let sessionId):
            marks.readdressing.insert(sessionId)
            endChain(of: LaneKey(sessionId: sessionId, kind: .delegate))
        case .response(let response):
            handleResponse(response)
        case .tick:
            let now = ContinuousClock.now
            for (key, instant) in waiting.sleeping where instant <= now {
                waiting.sleeping[key] = nil
                advance(key)
            }
        case .flushed(let unwritten):
            writes.task = nil
            if let unwritten {
                writes.outcomes.absorb(older: unwritten)  // written with the next flush
            } else {
                marks.held.subtract(writes.heldBeingWritten)  // the store holds them now
            }
            writes.heldBeingWritten = []
        case .stop:
            return .stop
        }
        return .continue
    }

    private func publishNextDue() {
        var due = chores.lastEviction + .seconds(1)
        if let retry = waiting.sleeping.values.min() { due = min(due, retry) }
        if !writes.outcomes.isEmpty { due = min(due, writes.lastFlush + configuration.flushInterval) }
        let scanDelay = chores.scanWanted ? Duration.milliseconds(50) : configuration.rescanInterval
        due = min(due, (chores.lastScan ?? .now) + scanDelay)
        nextDue.withLock { $0 = due }
    }

    /// Reads for lanes that ran dry, scans for new queues, and flushes outcomes, as each is due.
    private func serviceStore() async {
        await maintainLeases()
        await readdressDelegates()
        while !waiting.needsRead.isEmpty {  // bounded: each turn reads events or finds none
            let keys = waiting.needsRead
            waiting.needsRead = []
            for key in keys {
                await refill(key)
                advance(key)
                pump()  // lanes already read start sending while the others are read
            }
        }
        let now = ContinuousClock.now
        let sinceScan = chores.lastScan.map { now - $0 } ?? .seconds(1_000_000)
        if sinceScan >= configuration.rescanInterval || (chores.scanWanted && sinceScan >= .milliseconds(50)) {
            await scan()
        }
        if writes.outcomes.count >= configuration.flushThreshold
            || (!writes.outcomes.isEmpty && now - writes.lastFlush >= configuration.flushInterval)
        {
            await flush()
        }
        if now - chores.lastEviction >= .seconds(1) {
            chores.lastEviction = now
            forgetIdleLanes()
            await releaseUnusedLeases()
        }
    }

    /// Sends the heads of ready lanes while slots are free, in turn between tenants, each up to its cap.
    func pump() {
        let tenantLimit = configuration.tenantDeliveryLimit
        while inFlight.tokens.count < configuration.maximumConcurrentDeliveries,
            let key = waiting.ready.popNext(mayStart: { self.inFlight.perTenant[$0, default: 0] < tenantLimit })
        {
            send(key)
        }
    }

    /// Puts a lane where its state says it belongs: asleep, ready to send, or needing a read.
    func advance(_ key: LaneKey) {
        guard var lane = lanes[key], lane.inFlightToken == nil else { return }
        if let retryAt = lane.retryAt {
            if retryAt > .now {
                waiting.sleeping[key] = retryAt
                return
            }
            lane.retryAt = nil
            waiting.sleeping[key] = nil
        }
        if !lane.pending.isEmpty {
            waiting.ready.append(key, tenant: lane.tenant)
        } else if lane.mayHaveMore {
            waiting.needsRead.insert(key)
        }
        lanes[key] = lane
    }

    /// Finds queues with work in the store (new sessions, hints that were dropped, retries now due).
    private func scan() async {
        chores.lastScan = .now
        chores.scanWanted = false
        do {
            let limit = 10_000
            for owner in try await store.deliveries.sessionsWithDelegateBacklog(dueBy: Date(), limit: limit) {
                let key = LaneKey(sessionId: owner.sessionId, kind: .delegate)
                if lanes[key] == nil { await openDelegateLaneWhenLeased(owner.sessionId) } else { wakeIfIdle(key) }
            }
            for owner in try await store.deliveries.sessionsWithPendingCompletions(limit: limit) {
                let key = LaneKey(sessionId: owner.sessionId, kind: .completion)
                if lanes[key] == nil { openCompletionLaneWhenLeased(owner.sessionId, tenant: owner.tenant) }
                wakeIfIdle(key)
            }
            if chores.lastDepth.map({ .now - $0 >= configuration.rescanInterval }) ?? true {
                chores.lastDepth = .now
                metrics.recordQueueDepth(try await store.deliveries.deliveryQueueDepth())
            }
        } catch {
            logger.error("Scanning the event outbox failed", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    private func wakeIfIdle(_ key: LaneKey) {
        guard let lane = lanes[key], lane.inFlightToken == nil, lane.pending.isEmpty, lane.retryAt == nil else { return }
        lanes[key]?.mayHaveMore = true
        advance(key)
    }

    func openDelegateLane(_ sessionId: String) async {
        guard !marks.disabled.contains(sessionId), !marks.held.contains(sessionId) else { return }
        do {
            guard let queue = try await store.deliveries.delegateQueue(sessionId: sessionId) else { return }
            let key = LaneKey(sessionId: sessionId, kind: .delegate)
            var lane = DeliveryLane(key: key, tenant: queue.tenant, readCursor: queue.cursor)
            lane.delegate = queue.delegate
            lane.signer = queue.key.map(WebhookSigner.init(key:))
            lane.waitsForReattach = queue.waitsForReattach
            if let retryAt = queue.retryAt {
                lane.retryPersisted = true
                let wait = retryAt.timeIntervalSinceNow
                if wait > 0 { lane.retryAt = .now + .seconds(wait) }
            }
            lanes[key] = lane
            advance(key)
        } catch {
            logger.error(
                "Opening a delegate queue failed", metadata: ["session.id": "\(sessionId)", "error": "\(String(reflecting: error))"])
        }
    }

    /// Writes the outcomes learned so far in one transaction; on failure they are kept for the next try.
    /// Starts writing what was learned (one write at a time); its end comes back as `.flushed`.
    func flush() async {
        writes.lastFlush = .now
        guard !writes.outcomes.isEmpty, writes.task == nil, let inbox else { return }
        let batch = writes.outcomes
        writes.outcomes = DeliveryOutcomes()
        writes.heldBeingWritten = Set(batch.held.keys)
        let (store, logger) = (store, logger)
        writes.task = Task {
            do {
                try await store.deliveries.recordDeliveries(batch)
                inbox.post(.flushed(nil))
            } catch {
                logger.error("Recording webhook deliveries failed", metadata: ["error": "\(String(reflecting: error))"])
                inbox.post(.flushed(batch))
            }
        }
    }

    /// Forgets lanes with nothing to do for a while, once everything they learned is written (a lane
    /// forgotten earlier would be re-read from the store's older cursor and send events twice).
    private func forgetIdleLanes() {
        guard writes.areSettled else { return }
        let now = ContinuousClock.now
        let lifetime = leases.idleLifetime(configuration.idleQueueLifetime)
        for (key, lane) in lanes where lane.isIdle && now - lane.lastActive > lifetime {
            lanes[key] = nil
        }
    }
}
