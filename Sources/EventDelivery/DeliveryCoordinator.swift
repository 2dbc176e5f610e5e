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
    /// In-flight POSTs by token.
    var tokens: [Int: (key: LaneKey, tenant: String)] = [:]
    var inFlightPerTenant: [String: Int] = [:]
    var nextToken = 0
    /// Lanes with an event to send, waiting for a free slot (in turn between tenants, FIFO within one;
    /// stale entries are skipped).
    var ready = ReadyLanes()
    var needsRead: Set<LaneKey> = []
    var sleeping: [LaneKey: ContinuousClock.Instant] = [:]
    /// Delegate URLs disabled by a 410 here (until the store says so too, a scan must not reopen them).
    var disabledSessions: Set<String> = []
    /// Delegate queues held for their client's re-attach whose hold is not written yet: a scan meanwhile
    /// must not reopen them, which would send the held event again.
    var heldSessions: Set<String> = []
    /// The holds in the write under way, forgotten from `heldSessions` once it succeeds.
    var heldBeingWritten: Set<String> = []
    /// Sessions whose delegate changed, to re-address once their lane has nothing in flight.
    var readdressing: Set<String> = []
    /// Sessions whose delegate lane is read again from the store (delegate changes may have been missed).
    var refreshing: Set<String> = []
    /// The sessions this node delivers when nodes share the database.
    var leases: DeliveryLeases
    /// Learned since the last write.
    var outcomes = DeliveryOutcomes()
    var lastFlush = ContinuousClock.now
    var lastScan: ContinuousClock.Instant?
    var lastEviction = ContinuousClock.now
    var lastDepth: ContinuousClock.Instant?
    var scanWanted = true
    var isStopping = false
    /// The write of outcomes under way: the coordinator goes on sending meanwhile (a write waits behind
    /// the tasks' transactions, and a session's next POST should not).
    var flushTask: Task<Void, Never>?
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
            for signal in inbox.drain() { handle(signal) }
            if isStopping || Task.isCancelled { break }
            await serviceStore()
            pump()
            publishNextDue()
        }
        for (key, _) in tokens.values {
            if let head = lanes[key]?.pending.first, head.isDecision { waiters.deliver(.noAnswer, eventId: head.event.id) }
        }
        await flushTask?.value
        for signal in inbox.drain() {
            if case .flushed(let unwritten?) = signal { outcomes.absorb(older: unwritten) }
        }
        flushTask = nil
        await flush()
        await flushTask?.value
        await releaseAllLeases()
    }

    private func handle(_ signal: DispatcherSignal) {
        switch signal {
        case .hint(EventFeed.everySession):
            // Hints were lost: every lane may have more, and queues unknown here are scanned for.
            scanWanted = true
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
            if !known && !leases.isElsewhere(sessionId) { scanWanted = true }
        case .delegateChanged(EventFeed.everySession):
            refreshing.formUnion(lanes.keys.filter { $0.kind == .delegate }.map(\.sessionId))
        case .delegateChanged(let sessionId):
            readdressing.insert(sessionId)
        case .response(let response):
            handleResponse(response)
        case .tick:
            let now = ContinuousClock.now
            for (key, instant) in sleeping where instant <= now {
                sleeping[key] = nil
                advance(key)
            }
        case .flushed(let unwritten):
            flushTask = nil
            if let unwritten {
                outcomes.absorb(older: unwritten)  // written with the next flush
            } else {
                heldSessions.subtract(heldBeingWritten)  // the store holds them now
            }
            heldBeingWritten = []
        case .stop:
            isStopping = true
        }
    }

    private func publishNextDue() {
        var due = lastEviction + .seconds(1)
        if let retry = sleeping.values.min() { due = min(due, retry) }
        if !outcomes.isEmpty { due = min(due, lastFlush + configuration.flushInterval) }
        let scanDelay = scanWanted ? Duration.milliseconds(50) : configuration.rescanInterval
        due = min(due, (lastScan ?? .now) + scanDelay)
        nextDue.withLock { $0 = due }
    }

    /// Reads for lanes that ran dry, scans for new queues, and flushes outcomes, as each is due.
    private func serviceStore() async {
        await maintainLeases()
        await readdressDelegates()
        while !needsRead.isEmpty && !isStopping {  // bounded: each turn reads events or finds none
            let keys = needsRead
            needsRead = []
            for key in keys {
                await refill(key)
                advance(key)
                pump()  // lanes already read start sending while the others are read
            }
        }
        let now = ContinuousClock.now
        let sinceScan = lastScan.map { now - $0 } ?? .seconds(1_000_000)
        if sinceScan >= configuration.rescanInterval || (scanWanted && sinceScan >= .milliseconds(50)) {
            await scan()
        }
        if outcomes.count >= configuration.flushThreshold
            || (!outcomes.isEmpty && now - lastFlush >= configuration.flushInterval)
        {
            await flush()
        }
        if now - lastEviction >= .seconds(1) {
            lastEviction = now
            forgetIdleLanes()
            await releaseUnusedLeases()
        }
    }

    /// Sends the heads of ready lanes while slots are free, in turn between tenants, each up to its cap.
    func pump() {
        let tenantLimit = configuration.tenantDeliveryLimit
        while tokens.count < configuration.maximumConcurrentDeliveries,
            let key = ready.popNext(mayStart: { self.inFlightPerTenant[$0, default: 0] < tenantLimit })
        {
            send(key)
        }
    }

    /// Puts a lane where its state says it belongs: asleep, ready to send, or needing a read.
    func advance(_ key: LaneKey) {
        guard var lane = lanes[key], lane.inFlightToken == nil else { return }
        if let retryAt = lane.retryAt {
            if retryAt > .now {
                sleeping[key] = retryAt
                return
            }
            lane.retryAt = nil
            sleeping[key] = nil
        }
        if !lane.pending.isEmpty {
            ready.append(key, tenant: lane.tenant)
        } else if lane.mayHaveMore {
            needsRead.insert(key)
        }
        lanes[key] = lane
    }

    /// Finds queues with work in the store (new sessions, hints that were dropped, retries now due).
    private func scan() async {
        lastScan = .now
        scanWanted = false
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
            if lastDepth.map({ .now - $0 >= configuration.rescanInterval }) ?? true {
                lastDepth = .now
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
        guard !disabledSessions.contains(sessionId), !heldSessions.contains(sessionId) else { return }
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
        lastFlush = .now
        guard !outcomes.isEmpty, flushTask == nil, let inbox else { return }
        let batch = outcomes
        outcomes = DeliveryOutcomes()
        heldBeingWritten = Set(batch.held.keys)
        let (store, logger) = (store, logger)
        flushTask = Task {
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
        guard outcomes.isEmpty, flushTask == nil else { return }
        let now = ContinuousClock.now
        let lifetime = leases.idleLifetime(configuration.idleQueueLifetime)
        for (key, lane) in lanes where lane.isIdle && now - lane.lastActive > lifetime {
            lanes[key] = nil
        }
    }
}
