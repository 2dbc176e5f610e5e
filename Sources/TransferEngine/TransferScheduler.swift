import Curl
import Foundation
import Logging
import TransferModels

/// The engine's side of its `CurlMultiLoop`: which queued jobs start (in turn between tenants, by
/// priority within one, within the global and per-tenant limits and each session's
/// `httpMaximumConnectionsPerHost`), the idle timeouts, and the delegate's answers the transfers wait
/// for. Runs on the loop thread only.
final class TransferScheduler: CurlMultiLoopDriver {
    enum Command: Sendable {
        case start(TransferJob)
        case cancel(TransferID)
        case redirect(TransferID, RedirectDisposition)
        case response(TransferID, ResponseDisposition)
        case challenge(TransferID, ChallengeDisposition)
        case closeConnections(sessionId: String, idleOnly: Bool)
        /// The session is being invalidated: its connections close once none of its jobs runs or waits.
        case sessionInvalidated(String)
        /// A network path went down: its transfers fail with -1005 (queued ones with -1009), its connections close.
        case pathLost(String)
        /// A streamed upload's body has bytes (or its end) again: its paused transfer sends on.
        case uploadReadable(TransferID)
        /// The egress verdict on a proxied target's name, resolved off the loop.
        case proxiedTargetChecked(host: String, verdict: EgressPolicy.Verdict)
        /// The task's `rateLimit` changed (`PATCH`): its transfer takes it while it runs.
        case setRateLimit(TransferID, RateLimit?)
        case stop
    }

    let configuration: EngineConfiguration
    let observer: any TransferObserver
    /// Jobs not started yet.
    var waiting = FairQueue()
    /// `running.count` and `waiting.count` as the loop's last turn ended, for other threads to read.
    let load = LockedBox((running: 0, queued: 0))
    /// A job may have become startable since the last pass (one was queued, a slot or a host's connection
    /// was freed); otherwise the loop does not look through the queue again.
    var needsPass = false
    /// Every transfer with a slot, by its easy handle: jobs' own, and the part connections of segmented
    /// downloads (each holds a connection of its host and counts against every limit).
    var running: [ObjectIdentifier: Transfer] = [:]
    /// The primaries of segmented downloads (keys of `running`), and whether one may want another
    /// connection since the last look (a download began, a slot or a connection was freed).
    var segmentedDownloads: Set<ObjectIdentifier> = []
    var needsSegmentPass = false
    /// Each session's connection, DNS and TLS-session cache per network path (a connection is never
    /// reused on another path), with when it was last used.
    var shares: [ShareKey: (share: CurlShareHandle, lastUsed: ContinuousClock.Instant)] = [:]
    /// A session's share is released after this long without transfers (its connections close).
    let shareIdleLifetime: Duration = .seconds(300)
    /// Sessions being invalidated: their shares go as soon as nothing of theirs runs or waits, not after
    /// `shareIdleLifetime` (a service whose clients make a session per batch would otherwise hold every
    /// batch's connections for five minutes).
    var invalidatedSessions: Set<String> = []
    var lastShareSweep = ContinuousClock.now
    private var isStopping = false
    private var proxiedTargets = ProxiedTargetCheck()
    /// Sends a command to this scheduler's own loop (set by the engine once the loop exists).
    var sendToLoop: (@Sendable (Command) -> Void)?
    /// Holds transfers to their bandwidth limits (Bandwidth/).
    let bandwidth: BandwidthGovernor

    init(configuration: EngineConfiguration, observer: any TransferObserver) {
        self.configuration = configuration
        self.observer = observer
        self.bandwidth = BandwidthGovernor(serviceLimit: configuration.rateLimit, tenantLimit: configuration.tenantRateLimit)
    }

    var isFinished: Bool { isStopping && running.isEmpty }

    func handle(_ command: Command, multi: CurlMultiHandle) {
        switch command {
        case .start(let job):
            if job.storedResponse?.isServed == true { return serveStored(job, multi: multi) }
            if case .stream(let stream) = job.request.body { watch(stream, of: job.id) }
            waiting.append(job, hostKey: Self.hostKey(job, job.request.url))
            needsPass = true
        case .cancel(let id):
            if let job = waiting.remove(id) {
                bandwidth.forget(id)
                observer.transfer(id, didComplete: Transfer.cancelledBeforeStart(job))
            } else if let transfer = transfer(id) {
                apply(.cancel, to: transfer, multi: multi)
            }
        // A decision the transfer is not waiting for (late, or twice) leaves it alone: the machine says so.
        case .redirect(let id, let disposition):
            if let transfer = transfer(id) { apply(.redirectDecided(disposition), to: transfer, multi: multi) }
        case .response(let id, let disposition):
            if let transfer = transfer(id) { apply(.responseDecided(disposition), to: transfer, multi: multi) }
        case .challenge(let id, let disposition):
            if let transfer = transfer(id) { apply(.challengeDecided(disposition), to: transfer, multi: multi) }
        case .closeConnections(let sessionId, let idleOnly):
            // The share's connections close when its last user lets go of it: now, or as running transfers end.
            if !idleOnly || !running.values.contains(where: { $0.job.sessionId == sessionId }) {
                shares = shares.filter { $0.key.sessionId != sessionId }
            }
        case .sessionInvalidated(let sessionId):
            invalidatedSessions.insert(sessionId)
            lastShareSweep = .now - .seconds(1)  // swept on this iteration
        case .pathLost(let name):
            losePath(name, multi: multi)
        case .uploadReadable(let id):
            if let transfer = transfer(id) { apply(.uploadReadable, to: transfer, multi: multi) }
        case .proxiedTargetChecked(let host, let verdict):
            proxiedTargets.record(host, verdict)
            for transfer in running.values { apply(.proxiedTargetChecked(host: host), to: transfer, multi: multi) }
        case .setRateLimit(let id, let limit):
            bandwidth.setTaskLimit(id, limit, connections: running.values.filter { $0.job.id == id })
        case .stop:
            isStopping = true
            for job in waiting.removeAll(where: { _ in true }) {
                observer.transfer(job.id, didComplete: Transfer.cancelledBeforeStart(job))
            }
            // Primaries first: each takes its part connections with it.
            for transfer in running.values.sorted(by: { $0.segments.connectionNumber < $1.segments.connectionNumber }) {
                abort(transfer, multi: multi)
            }
        }
    }

    /// The job's own transfer (not a part connection of its download).
    private func transfer(_ id: TransferID) -> Transfer? {
        running.values.first { $0.job.id == id && $0.segments.connectionNumber == 0 }
    }

    /// Feeds `input` to the transfer's state machine, has the transfer carry out the actions, and takes
    /// the step that comes of them.
    private func apply(_ input: TransferStateMachine.Input, to transfer: Transfer, multi: CurlMultiHandle) {
        conclude(transfer, transfer.perform(transfer.machine.handle(input)), multi: multi)
    }

    /// Starts waiting jobs while slots are free: in turn between the tenants with queued work (each up to
    /// its cap), by priority within a tenant, and only where the session's `httpMaximumConnectionsPerHost`
    /// leaves room (one transfer holds one connection over HTTP/1.1).
    func willPerform(multi: CurlMultiHandle) {
        releaseIdleShares()
        startWaitingJobs(multi: multi)
        if needsSegmentPass {
            needsSegmentPass = false
            openPartConnections(multi: multi)  // after the queue: a queued job goes before a part
        }
        guard !bandwidth.flows.isEmpty else { return }
        bandwidth.divideIfNeeded()
        bandwidth.turn { [running] in running[ObjectIdentifier($0.easy)] === $0 }
    }

    private func startWaitingJobs(multi: CurlMultiHandle) {
        let limit = configuration.maximumConcurrentTransfers
        guard needsPass, !waiting.isEmpty, running.count < limit else { return }
        needsPass = false
        var (perHost, perTenant) = runningCounts()
        while running.count < limit {
            var room = FairQueue.Room(
                runningPerTenant: perTenant, tenantLimit: configuration.tenantTransferLimit, allowsDiscretionary: false,
                hostHasRoom: { perHost[$0.hostKey, default: 0] < $0.job.httpMaximumConnectionsPerHost })
            var next = waiting.popNext(room)
            if next == nil, running.count < max(1, limit / 2) {
                room.allowsDiscretionary = true  // nothing else can start: the engine is mostly idle
                next = waiting.popNext(room)
            }
            guard let (job, hostKey) = next else { break }
            perHost[hostKey, default: 0] += 1
            perTenant[job.tenant, default: 0] += 1
            start(job, hostKey: hostKey, multi: multi)
        }
    }

    /// Connections in use per host (`hostKey`) and transfers per tenant: a parked primary holds no
    /// connection but keeps its slot.
    func runningCounts() -> (perHost: [String: Int], perTenant: [String: Int]) {
        var perHost: [String: Int] = [:]
        var perTenant: [String: Int] = [:]
        for transfer in running.values {
            if !transfer.isParked { perHost[transfer.hostKey, default: 0] += 1 }
            perTenant[transfer.job.tenant, default: 0] += 1
        }
        return (perHost, perTenant)
    }

    /// A transfer leaves its slot (and its host's connection).
    /// A streamed body's new bytes unpause the transfer that sends it (on the loop thread).
    private func watch(_ stream: UploadStream, of id: TransferID) {
        let send = sendToLoop
        stream.onReadable { send?(.uploadReadable(id)) }
    }

    func release(_ transfer: Transfer) {
        // A streamed body's producer stops: nothing reads it any more (an origin may answer before the end).
        if case .stream(let stream) = transfer.request.body { stream.abandon() }
        running[ObjectIdentifier(transfer.easy)] = nil
        bandwidth.detach(transfer)
        needsPass = true
        needsSegmentPass = true
    }

    private func start(_ job: TransferJob, hostKey: String, multi: CurlMultiHandle) {
        if let refusal = Transfer.refusal(of: job) {
            observer.transfer(job.id, didComplete: Transfer.failedToStart(job, failure: refusal))
            return
        }
        do {
            let transfer = try Transfer(
                job: job, configuration: configuration, observer: observer, share: share(for: job), hostKey: hostKey)
            transfer.segments.began = { [weak self] primary in self?.segmentsBegan(primary) }
            transfer.adoptMirrors()
            transfer.resumeSegments()
            bandwidth.attach(transfer)  // before `prepare`: its sockets' receive buffer follows its limit
            try transfer.prepare()
            running[ObjectIdentifier(transfer.easy)] = transfer
            admit(transfer, multi: multi)
        } catch {
            observer.transfer(job.id, didComplete: Transfer.failedToStart(job, error: error))
        }
    }

    /// A cache hit takes no slot and sends nothing: the stored response is the answer at once (the
    /// transfer stays only while its delegate decides about the response).
    private func serveStored(_ job: TransferJob, multi: CurlMultiHandle) {
        if let refusal = Transfer.refusal(of: job) {
            observer.transfer(job.id, didComplete: Transfer.failedToStart(job, failure: refusal))
            return
        }
        do {
            let transfer = try Transfer(job: job, configuration: configuration, observer: observer)
            running[ObjectIdentifier(transfer.easy)] = transfer
            conclude(transfer, transfer.serveStoredResponse(), multi: multi)
        } catch {
            observer.transfer(job.id, didComplete: Transfer.failedToStart(job, error: error))
        }
    }

    /// Session and origin host, the unit of `httpMaximumConnectionsPerHost`.
    static func hostKey(_ job: TransferJob, _ url: String) -> String {
        "\(job.sessionId) \(URLComponents(string: url)?.host?.lowercased() ?? url)"
    }

    /// A transfer's request ended: follow a redirect with the same handle, or report the outcome. A
    /// transfer whose delegate is still deciding about the response waits (out of the multi) for it.
    func transferEnded(_ easy: CurlEasyHandle, result: CurlResult, multi: CurlMultiHandle) {
        multi.remove(easy)
        guard let transfer = running[ObjectIdentifier(easy)] else { return }
        if transfer.segmentDownload != nil { return segmentRequestEnded(transfer, result: result, multi: multi) }
        conclude(transfer, transfer.requestEnded(result: result), multi: multi)
    }

    /// A freed slot goes to the next queued transfer at once: polling first would sleep until some socket
    /// or command woke the loop, up to a second per slot-full of a backlog. Otherwise the loop sleeps until
    /// the next idle deadline (at most a second), failing the transfers whose deadline passed.
    func pollTimeout(endedTransfers: Int, multi: CurlMultiHandle) -> Duration? {
        // Published as each turn ends, before the loop may sleep: what other threads read stays current.
        let now = (running: running.count, queued: waiting.count)
        load.withLock { if $0 != now { $0 = now } }
        if endedTransfers > 0 && !waiting.isEmpty { return nil }
        // A download became segmented (its head came in this perform): its parts open now, not after the
        // next socket event.
        if needsSegmentPass && !segmentedDownloads.isEmpty { return nil }
        let idle = enforceIdleTimeouts(multi: multi)
        return bandwidth.wakeAfter.map { min($0, idle) } ?? idle
    }

    func loopWillEnd(multi: CurlMultiHandle) {
        for transfer in running.values { multi.remove(transfer.easy) }
        running.removeAll()
        shares.removeAll()
    }

    /// Carries out what the scheduler does next for `transfer` (nothing for nil: it waits, or goes on).
    private func conclude(_ transfer: Transfer, _ step: Transfer.Step?, multi: CurlMultiHandle) {
        guard let step else { return }
        if transfer.segmentDownload != nil, case .done(let outcome) = step {  // a refused proxied target
            return abort(transfer, multi: multi, failure: outcome.error ?? Self.cancelled, scope: .connection)
        }
        switch step {
        case .follow(let next):
            follow(transfer, to: next, multi: multi)
        case .sendAgain:
            bandwidth.attach(transfer)
            do {
                try transfer.restartBody()
                try transfer.prepare()
            } catch {
                release(transfer)
                return observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: .init(curlError: error)))
            }
            admit(transfer, multi: multi)
        case .admit:
            admit(transfer, multi: multi)
        case .abort(let failure):
            abort(transfer, multi: multi, failure: failure)
        case .done(let outcome):
            if let failure = outcome.error, failOver(transfer, failure, multi: multi) { return }  // another mirror
            if continueFromMetalink(transfer, outcome, multi: multi) { return }  // the document read: now the file
            release(transfer)
            observer.transfer(transfer.job.id, didComplete: outcome)
        }
    }

    /// Sends `request` (the redirect URLSession's rules made, or the delegate's own) with the same handle.
    private func follow(_ transfer: Transfer, to request: OutgoingRequest, multi: CurlMultiHandle) {
        if case .stream(let next) = request.body, case .stream(let sent) = transfer.request.body, next === sent {
            // A 307/308 keeps the body, but a streamed one is read once: the task layer gives a new
            // stream (`needNewBodyStream`); following with the one already sent fails with -1021.
            let failure = TransferFailure(
                code: URLErrorCode.requestBodyStreamExhausted.rawValue, curlCode: 0,
                message: "the redirect needs the streamed body again", reason: "needNewBodyStream")
            return abort(transfer, multi: multi, failure: failure)
        }
        observer.transfer(transfer.job.id, willRedirect: transfer.response.head, to: request)
        if case .stream(let stream) = request.body { watch(stream, of: transfer.job.id) }
        if case .stream(let sent) = transfer.request.body { sent.abandon() }  // its producer stops: nothing reads it
        transfer.request = request
        needsPass = true  // it may have left a host whose connections were all taken
        bandwidth.attach(transfer)
        do {
            try transfer.prepare()
        } catch {
            release(transfer)
            return observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: .init(curlError: error)))
        }
        admit(transfer, multi: multi)
    }

    /// Hands a prepared request to libcurl, once the target its proxy would reach (if it goes through one)
    /// passes the egress policy (see `ProxiedTargetCheck`); a name being resolved holds it, out of the multi.
    func admit(_ transfer: Transfer, multi: CurlMultiHandle) {
        if let host = transfer.proxiedTargetHost {
            let send = sendToLoop
            let outcome = proxiedTargets.check(host, policy: configuration.egress) { host, verdict in
                send?(.proxiedTargetChecked(host: host, verdict: verdict))
            }
            switch outcome {
            case .allowed: break
            case .pending:
                _ = transfer.machine.handle(.proxiedTargetPending(host: host))
                return
            case .denied(let reason):
                return conclude(transfer, .done(transfer.outcome(failure: transfer.proxiedTargetDenied(host, reason))), multi: multi)
            }
        }
        do {
            try multi.add(transfer.easy)
        } catch {
            if transfer.segmentDownload != nil {
                return abort(transfer, multi: multi, failure: .init(curlError: error), scope: .connection)
            }
            release(transfer)
            observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: .init(curlError: error)))
        }
    }

    /// Fails transfers that moved no byte for their `timeoutIntervalForRequest`; returns how long the loop
    /// may sleep before the next deadline (at most a second).
    private func enforceIdleTimeouts(multi: CurlMultiHandle) -> Duration {
        let now = ContinuousClock.now
        var sleep: Duration = .seconds(1)
        // A delegate's time is not idle time, nor a wait for the transfer's bandwidth limit.
        for transfer in running.values where !transfer.machine.isWaiting && !bandwidth.isHolding(transfer) {
            let deadline = transfer.idleDeadline
            if deadline <= now {
                let seconds = transfer.job.timeoutIntervalForRequest
                // One connection of a segmented download: the others take its range.
                abort(
                    transfer, multi: multi,
                    failure: TransferFailure(
                        code: URLErrorCode.timedOut.rawValue, curlCode: 28, message: "no data for \(seconds) seconds"),
                    scope: .connection)
                if !waiting.isEmpty { sleep = .zero }  // its slot goes to the next queued transfer at once
            } else {
                sleep = min(sleep, deadline - now)
            }
        }
        return sleep
    }

    static let cancelled = TransferFailure(code: URLErrorCode.cancelled.rawValue, curlCode: 42, message: "cancelled")

    /// What an abort ends: the whole transfer, or (for a segmented download) only this connection, whose
    /// range the others take.
    enum AbortScope { case transfer, connection }

    /// Takes a transfer out of the multi and reports it ended with `failure` (cancelled by default).
    func abort(
        _ transfer: Transfer, multi: CurlMultiHandle, failure: TransferFailure = TransferScheduler.cancelled, scope: AbortScope = .transfer
    ) {
        guard running[ObjectIdentifier(transfer.easy)] === transfer else { return }  // already gone with its download
        if let download = transfer.segmentDownload {
            multi.remove(transfer.easy)
            if scope == .connection { return connectionFailed(transfer, download, failure, multi: multi) }
            return failSegmented(download, failure, multi: multi)
        }
        multi.remove(transfer.easy)
        if scope == .connection, failOver(transfer, failure, multi: multi) { return }  // an idle mirror: another one
        release(transfer)
        observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: failure))
    }
}
