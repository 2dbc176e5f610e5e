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
        /// The egress verdict on a proxied target's name, resolved off the loop.
        case proxiedTargetChecked(host: String, verdict: EgressPolicy.Verdict)
        case stop
    }

    private let configuration: EngineConfiguration
    private let observer: any TransferObserver
    /// Jobs not started yet.
    private var waiting = FairQueue()
    /// A job may have become startable since the last pass (one was queued, a slot or a host's connection
    /// was freed); otherwise the loop does not look through the queue again.
    private var needsPass = false
    private var running: [ObjectIdentifier: Transfer] = [:]
    /// Each session's connection, DNS and TLS-session cache per network path (a connection is never
    /// reused on another path), with when it was last used.
    private var shares: [ShareKey: (share: CurlShareHandle, lastUsed: ContinuousClock.Instant)] = [:]
    /// A session's share is released after this long without transfers (its connections close).
    private let shareIdleLifetime: Duration = .seconds(300)
    /// Sessions being invalidated: their shares go as soon as nothing of theirs runs or waits, not after
    /// `shareIdleLifetime` (a service whose clients make a session per batch would otherwise hold every
    /// batch's connections for five minutes).
    private var invalidatedSessions: Set<String> = []
    private var lastShareSweep = ContinuousClock.now
    private var isStopping = false
    private var proxiedTargets = ProxiedTargetCheck()
    /// Sends a command to this scheduler's own loop (set by the engine once the loop exists).
    var sendToLoop: (@Sendable (Command) -> Void)?

    init(configuration: EngineConfiguration, observer: any TransferObserver) {
        self.configuration = configuration
        self.observer = observer
    }

    var isFinished: Bool { isStopping && running.isEmpty }

    func handle(_ command: Command, multi: CurlMultiHandle) {
        switch command {
        case .start(let job):
            if job.storedResponse?.isServed == true { return serveStored(job, multi: multi) }
            waiting.append(job, hostKey: Self.hostKey(job, job.request.url))
            needsPass = true
        case .cancel(let id):
            if let job = waiting.remove(id) {
                observer.transfer(id, didComplete: Transfer.cancelledBeforeStart(job))
            } else if let transfer = transfer(id) {
                abort(transfer, multi: multi)
            }
        case .redirect(let id, let disposition):
            guard let transfer = transfer(id), case .redirect? = transfer.waiting else { return }
            transfer.waiting = nil
            switch disposition {
            case .follow(let request): follow(transfer, to: request, multi: multi)
            case .reject: conclude(transfer, transfer.rejectRedirect(), multi: multi)
            }
        case .response(let id, let disposition):
            guard let transfer = transfer(id), case .response(let finished)? = transfer.waiting else { return }
            resolveResponse(transfer, disposition, finished: finished, multi: multi)
        case .challenge(let id, let disposition):
            guard let transfer = transfer(id), case .challenge(let challenge)? = transfer.waiting else { return }
            transfer.waiting = nil
            conclude(transfer, transfer.resolve(challenge, disposition), multi: multi)
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
        case .proxiedTargetChecked(let host, let verdict):
            proxiedTargets.record(host, verdict)
            for transfer in running.values {
                guard case .proxiedTarget(host)? = transfer.waiting else { continue }
                transfer.waiting = nil
                admit(transfer, multi: multi)
            }
        case .stop:
            isStopping = true
            for job in waiting.removeAll(where: { _ in true }) {
                observer.transfer(job.id, didComplete: Transfer.cancelledBeforeStart(job))
            }
            for transfer in running.values { abort(transfer, multi: multi) }
        }
    }

    private func transfer(_ id: TransferID) -> Transfer? {
        running.values.first { $0.job.id == id }
    }

    private func resolveResponse(
        _ transfer: Transfer, _ disposition: ResponseDisposition, finished: CurlResult?, multi: CurlMultiHandle
    ) {
        transfer.waiting = nil
        if case .cancel = disposition { return abort(transfer, multi: multi) }
        if case .becomeDownload(let path) = disposition {
            do {
                try transfer.becomeDownload(path: path)
            } catch {
                return abort(
                    transfer, multi: multi,
                    failure: TransferFailure(
                        code: URLErrorCode.cannotCreateFile.rawValue, curlCode: 23, message: "\(error)"))
            }
        }
        do {
            try transfer.handleMultipartParts()  // the parts held while the delegate decided
        } catch {
            return abort(
                transfer, multi: multi,
                failure: TransferFailure(code: URLErrorCode.cannotWriteToFile.rawValue, curlCode: 23, message: "\(error)"))
        }
        if case .response = transfer.waiting {  // the next part is being asked about
            transfer.waiting = .response(finished: finished)
            return
        }
        if let finished {
            conclude(transfer, transfer.requestEnded(result: finished), multi: multi)
        } else {
            transfer.lastActivity = .now  // the idle timeout starts again with the traffic
            transfer.easy.unpause()
        }
    }

    /// Starts waiting jobs while slots are free: in turn between the tenants with queued work (each up to
    /// its cap), by priority within a tenant, and only where the session's `httpMaximumConnectionsPerHost`
    /// leaves room (one transfer holds one connection over HTTP/1.1).
    func willPerform(multi: CurlMultiHandle) {
        releaseIdleShares()
        let limit = configuration.maximumConcurrentTransfers
        guard needsPass, !waiting.isEmpty, running.count < limit else { return }
        needsPass = false
        var perHost: [String: Int] = [:]
        var perTenant: [String: Int] = [:]
        for transfer in running.values {
            perHost[Self.hostKey(transfer.job, transfer.request.url), default: 0] += 1
            perTenant[transfer.job.tenant, default: 0] += 1
        }
        while running.count < limit {
            var room = FairQueue.Room(
                runningPerTenant: perTenant, tenantLimit: configuration.tenantTransferLimit, allowsDiscretionary: false,
                hostHasRoom: { perHost[$0.hostKey, default: 0] < $0.job.httpMaximumConnectionsPerHost })
            var next = waiting.popNext(room)
            if next == nil, running.count < max(1, limit / 2) {
                room.allowsDiscretionary = true  // nothing else can start: the engine is mostly idle
                next = waiting.popNext(room)
            }
            guard let job = next else { break }
            perHost[Self.hostKey(job, job.request.url), default: 0] += 1
            perTenant[job.tenant, default: 0] += 1
            start(job, multi: multi)
        }
    }

    /// A transfer leaves its slot (and its host's connection).
    private func release(_ transfer: Transfer) {
        running[ObjectIdentifier(transfer.easy)] = nil
        needsPass = true
    }

    private func start(_ job: TransferJob, multi: CurlMultiHandle) {
        do {
            let transfer = try Transfer(job: job, configuration: configuration, observer: observer, share: share(for: job))
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
        do {
            let transfer = try Transfer(job: job, configuration: configuration, observer: observer)
            running[ObjectIdentifier(transfer.easy)] = transfer
            if let step = transfer.serveStoredResponse() { conclude(transfer, step, multi: multi) }
        } catch {
            observer.transfer(job.id, didComplete: Transfer.failedToStart(job, error: error))
        }
    }

    /// Session and origin host, the unit of `httpMaximumConnectionsPerHost`.
    private static func hostKey(_ job: TransferJob, _ url: String) -> String {
        "\(job.sessionId) \(URLComponents(string: url)?.host?.lowercased() ?? url)"
    }

    struct ShareKey: Hashable {
        var sessionId: String
        var path: String?

        init(_ job: TransferJob) { (sessionId, path) = (job.sessionId, job.networkPath?.name) }
    }

    /// The session's share on the job's path (made on first use); ephemeral sessions get one too, so
    /// nothing crosses sessions.
    private func share(for job: TransferJob) throws -> CurlShareHandle {
        let key = ShareKey(job)
        if let entry = shares[key] {
            shares[key]?.lastUsed = .now
            return entry.share
        }
        let share = try CurlShareHandle()
        shares[key] = (share, .now)
        return share
    }

    /// Once a second: the shares idle for `shareIdleLifetime`, and those of invalidated sessions with
    /// nothing left to run, go (their connections close).
    private func releaseIdleShares() {
        let now = ContinuousClock.now
        guard now - lastShareSweep >= .seconds(1) else { return }
        lastShareSweep = now
        let busy = Set(running.values.map { ShareKey($0.job) })
        let draining = invalidatedSessions.filter { session in
            running.values.contains { $0.job.sessionId == session } || waiting.contains { $0.sessionId == session }
        }
        for (key, entry) in shares where !busy.contains(key) {
            let finished = invalidatedSessions.contains(key.sessionId) && !draining.contains(key.sessionId)
            if finished || now - entry.lastUsed > shareIdleLifetime { shares[key] = nil }
        }
        invalidatedSessions = draining
    }

    /// The kernel may take minutes to notice a connection over a link that went away: the transfers on
    /// the path end now, as URLSession ends them when the interface goes (-1005), and jobs queued for it
    /// fail as having no network (-1009); the caller decides which wait for another path.
    private func losePath(_ name: String, multi: CurlMultiHandle) {
        for job in waiting.removeAll(where: { $0.networkPath?.name == name }) {
            let failure = TransferFailure(
                code: URLErrorCode.notConnectedToInternet.rawValue, curlCode: 7, message: "network path \(name) is down",
                reason: "networkPathLost")
            observer.transfer(job.id, didComplete: Transfer.failedToStart(job, failure: failure))
        }
        for transfer in running.values where transfer.job.networkPath?.name == name && transfer.waiting == nil {
            abort(
                transfer, multi: multi,
                failure: TransferFailure(
                    code: URLErrorCode.networkConnectionLost.rawValue, curlCode: 56, message: "network path \(name) went down",
                    reason: "networkPathLost"))
        }
        let inUse = Set(running.values.map { ShareKey($0.job) })  // transfers held by a delegate's decision
        shares = shares.filter { $0.key.path != name || inUse.contains($0.key) }
    }

    /// A transfer's request ended: follow a redirect with the same handle, or report the outcome. A
    /// transfer whose delegate is still deciding about the response waits (out of the multi) for it.
    func transferEnded(_ easy: CurlEasyHandle, result: CurlResult, multi: CurlMultiHandle) {
        multi.remove(easy)
        guard let transfer = running[ObjectIdentifier(easy)] else { return }
        if case .response? = transfer.waiting {
            transfer.waiting = .response(finished: result)
            return
        }
        conclude(transfer, transfer.requestEnded(result: result), multi: multi)
    }

    /// A freed slot goes to the next queued transfer at once: polling first would sleep until some socket
    /// or command woke the loop, up to a second per slot-full of a backlog. Otherwise the loop sleeps until
    /// the next idle deadline (at most a second), failing the transfers whose deadline passed.
    func pollTimeout(endedTransfers: Int, multi: CurlMultiHandle) -> Duration? {
        if endedTransfers > 0 && !waiting.isEmpty { return nil }
        return enforceIdleTimeouts(multi: multi)
    }

    func loopWillEnd(multi: CurlMultiHandle) {
        for transfer in running.values { multi.remove(transfer.easy) }
        running.removeAll()
        shares.removeAll()
    }

    private func conclude(_ transfer: Transfer, _ step: Transfer.Step, multi: CurlMultiHandle) {
        switch step {
        case .redirect(let next):
            if transfer.job.decidesRedirects {
                transfer.waiting = .redirect(next)  // holds its slot, out of the multi, until the answer
                observer.transfer(transfer.job.id, asksToRedirect: transfer.head, to: next)
            } else {
                follow(transfer, to: next, multi: multi)
            }
        case .challenge(let challenge):
            guard transfer.job.decidesChallenges else { return conclude(transfer, transfer.resolveByDefault(challenge), multi: multi) }
            transfer.waiting = .challenge(challenge)  // holds its slot, out of the multi, until the answer
            observer.transfer(transfer.job.id, asksAbout: challenge)
        case .sendAgain:
            do {
                try transfer.restartBody()
                try transfer.prepare()
            } catch {
                release(transfer)
                return observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: .init(curlError: error)))
            }
            admit(transfer, multi: multi)
        case .done(let outcome):
            release(transfer)
            observer.transfer(transfer.job.id, didComplete: outcome)
        }
    }

    /// Sends `request` (the redirect URLSession's rules made, or the delegate's own) with the same handle.
    private func follow(_ transfer: Transfer, to request: OutgoingRequest, multi: CurlMultiHandle) {
        observer.transfer(transfer.job.id, willRedirect: transfer.head, to: request)
        transfer.request = request
        needsPass = true  // it may have left a host whose connections were all taken
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
    private func admit(_ transfer: Transfer, multi: CurlMultiHandle) {
        if let host = transfer.proxiedTargetHost {
            let send = sendToLoop
            let outcome = proxiedTargets.check(host, policy: configuration.egress) { host, verdict in
                send?(.proxiedTargetChecked(host: host, verdict: verdict))
            }
            switch outcome {
            case .allowed: break
            case .pending:
                transfer.waiting = .proxiedTarget(host: host)
                return
            case .denied(let reason):
                return conclude(transfer, .done(transfer.outcome(failure: transfer.proxiedTargetDenied(host, reason))), multi: multi)
            }
        }
        do {
            try multi.add(transfer.easy)
        } catch {
            release(transfer)
            observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: .init(curlError: error)))
        }
    }

    /// Fails transfers that moved no byte for their `timeoutIntervalForRequest`; returns how long the loop
    /// may sleep before the next deadline (at most a second).
    private func enforceIdleTimeouts(multi: CurlMultiHandle) -> Duration {
        let now = ContinuousClock.now
        var sleep: Duration = .seconds(1)
        for transfer in running.values where transfer.waiting == nil {  // a delegate's time is not idle time
            let deadline = transfer.idleDeadline
            if deadline <= now {
                let seconds = transfer.job.timeoutIntervalForRequest
                abort(
                    transfer, multi: multi,
                    failure: TransferFailure(
                        code: URLErrorCode.timedOut.rawValue, curlCode: 28, message: "no data for \(seconds) seconds"))
                if !waiting.isEmpty { sleep = .zero }  // its slot goes to the next queued transfer at once
            } else {
                sleep = min(sleep, deadline - now)
            }
        }
        return sleep
    }

    /// Takes a transfer out of the multi and reports it ended with `failure` (cancelled by default).
    private func abort(
        _ transfer: Transfer, multi: CurlMultiHandle,
        failure: TransferFailure = TransferFailure(code: URLErrorCode.cancelled.rawValue, curlCode: 42, message: "cancelled")
    ) {
        multi.remove(transfer.easy)
        release(transfer)
        observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: failure))
    }
}
