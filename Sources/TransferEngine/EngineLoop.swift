internal import CCurl
import Foundation
import Logging
import TransferModels

/// One thread that owns a `CURLM` and every `CURL` in it, and repeats perform → info_read → poll.
///
/// Other threads only append commands to the locked inbox and wake the loop (`curl_multi_wakeup`), so no
/// libcurl handle is ever touched from two threads (STYLE.md §6, anti-pattern 1).
final class EngineLoop: @unchecked Sendable {
    // `@unchecked Sendable`: `inbox` is locked; `multi.wakeUp()` is thread-safe; everything else is
    // touched only on `thread` after start.
    enum Command {
        case start(TransferJob)
        case cancel(String)
        case redirect(String, RedirectDisposition)
        case response(String, ResponseDisposition)
        case challenge(String, ChallengeDisposition)
        case stop
    }

    private let configuration: EngineConfiguration
    private let observer: any TransferObserver
    private let logger: Logger
    private let multi: CurlMultiHandle
    private let inbox = LockedBox<[Command]>([])
    /// Jobs not started yet, each with its arrival number (FIFO within a priority).
    private var waiting: [(arrival: Int, job: TransferJob)] = []
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Each session's connection, DNS and TLS-session cache, with when it was last used.
    private var shares: [String: (share: CurlShareHandle, lastUsed: ContinuousClock.Instant)] = [:]
    /// A session's share is released after this long without transfers (its connections close).
    private let shareIdleLifetime: Duration = .seconds(300)
    private var isStopping = false
    private var thread: Thread?
    private let whenStopped = LockedBox<(@Sendable () -> Void)?>(nil)
    private var arrivals = 0

    init(configuration: EngineConfiguration, observer: any TransferObserver, logger: Logger) throws(CurlError) {
        self.configuration = configuration
        self.observer = observer
        self.logger = logger
        self.multi = try CurlMultiHandle()
        try multi.set(CURLMOPT_MAX_TOTAL_CONNECTIONS, 0)
        try multi.set(CURLMOPT_MAXCONNECTS, configuration.maximumCachedConnections)
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "urlsessiond-engine"
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    /// Queues a command for the loop thread and wakes it.
    func send(_ command: Command) {
        inbox.withLock { $0.append(command) }
        multi.wakeUp()
    }

    /// Stops the loop: running transfers are aborted (their observers hear `cancelled`), then
    /// `completion` runs on the loop thread, after the multi handle is closed.
    func stop(completion: @escaping @Sendable () -> Void) {
        whenStopped.withLock { $0 = completion }
        send(.stop)
    }

    private func run() {
        while true {
            for command in inbox.withLock({ commands in defer { commands.removeAll() }; return commands }) {
                handle(command)
            }
            if isStopping && running.isEmpty { break }
            startWaitingTransfers()
            do {
                _ = try multi.perform()
                let before = running.count
                for (easy, result) in multi.completedTransfers() { finish(easy, result: result) }
                // A freed slot goes to the next queued transfer now: polling first would sleep until some
                // socket or command woke the loop, up to a second per slot-full of a backlog.
                if running.count < before && !waiting.isEmpty { continue }
                try multi.poll(timeoutMilliseconds: enforceIdleTimeouts())
            } catch {
                logger.error("Engine loop error", metadata: ["error": "\(error)"])
            }
        }
        shares.removeAll()
        multi.close()
        whenStopped.withLock { $0 }?()
    }

    private func handle(_ command: Command) {
        switch command {
        case .start(let job):
            arrivals += 1
            waiting.append((arrivals, job))
        case .cancel(let id):
            if let index = waiting.firstIndex(where: { $0.job.id == id }) {
                let job = waiting.remove(at: index).job
                observer.transfer(id, didComplete: Transfer.cancelledBeforeStart(job))
            } else if let (easy, transfer) = running.first(where: { $0.value.job.id == id }) {
                abort(easy, transfer)
            }
        case .redirect(let id, let disposition):
            guard let (easy, transfer) = running.first(where: { $0.value.job.id == id }),
                case .redirect? = transfer.waiting
            else { return }
            transfer.waiting = nil
            switch disposition {
            case .follow(let request):
                follow(easy, transfer, to: request)
            case .reject:
                conclude(easy, transfer, transfer.rejectRedirect())
            }
        case .response(let id, let disposition):
            guard let (easy, transfer) = running.first(where: { $0.value.job.id == id }),
                case .response(let finished)? = transfer.waiting
            else { return }
            transfer.waiting = nil
            if case .cancel = disposition { return abort(easy, transfer) }
            if case .becomeDownload(let path) = disposition {
                do {
                    try transfer.becomeDownload(path: path)
                } catch {
                    return abort(easy, transfer, failure: TransferFailure(
                        code: URLErrorCode.cannotCreateFile.rawValue, curlCode: 23, message: "\(error)"))
                }
            }
            if let finished {
                conclude(easy, transfer, transfer.requestEnded(result: finished))
            } else {
                transfer.lastActivity = .now  // the idle timeout starts again with the traffic
                _ = curl_easy_pause(transfer.easy.raw, CURLPAUSE_CONT)
            }
        case .challenge(let id, let disposition):
            guard let (easy, transfer) = running.first(where: { $0.value.job.id == id }),
                case .challenge(let challenge)? = transfer.waiting
            else { return }
            transfer.waiting = nil
            switch disposition {
            case .useCredential(let user, let password):
                do {
                    try transfer.retry(with: user, password: password, for: challenge)
                    try transfer.prepare()
                    try multi.add(transfer.easy)
                } catch {
                    running[easy] = nil
                    observer.transfer(id, didComplete: transfer.outcome(failure: .init(curlError: error)))
                }
            case .performDefaultHandling, .rejectProtectionSpace:
                conclude(easy, transfer, transfer.acceptChallengeResponse())
            case .cancelAuthenticationChallenge:
                abort(easy, transfer)
            }
        case .stop:
            isStopping = true
            for (_, job) in waiting { observer.transfer(job.id, didComplete: Transfer.cancelledBeforeStart(job)) }
            waiting.removeAll()
            for (easy, transfer) in running { abort(easy, transfer) }
        }
    }

    /// Starts waiting jobs, highest priority first and FIFO within one, up to the global limit and each
    /// session's `httpMaximumConnectionsPerHost` (one transfer holds one connection over HTTP/1.1).
    private func startWaitingTransfers() {
        releaseIdleShares()
        guard !waiting.isEmpty, running.count < configuration.maximumConcurrentTransfers else { return }
        waiting.sort {
            ($0.job.isDiscretionary ? 0 : 1, $0.job.priority, -$0.arrival) > ($1.job.isDiscretionary ? 0 : 1, $1.job.priority, -$1.arrival)
        }
        let spareCapacity = max(1, configuration.maximumConcurrentTransfers / 2)
        var perHost: [String: Int] = [:]
        for transfer in running.values { perHost[Self.hostKey(transfer.job, transfer.request.url), default: 0] += 1 }
        var index = 0
        while running.count < configuration.maximumConcurrentTransfers, index < waiting.count {
            let job = waiting[index].job
            // Discretionary jobs come last (the sort); they start only while the engine is mostly idle.
            if job.isDiscretionary && (running.count >= spareCapacity || index > 0) { break }
            let key = Self.hostKey(job, job.request.url)
            guard perHost[key, default: 0] < job.httpMaximumConnectionsPerHost else {
                index += 1
                continue
            }
            waiting.remove(at: index)
            perHost[key, default: 0] += 1
            do {
                let transfer = try Transfer(job: job, configuration: configuration, observer: observer, share: share(for: job))
                try transfer.prepare()
                try multi.add(transfer.easy)
                running[transfer.easy.raw] = transfer
            } catch {
                observer.transfer(job.id, didComplete: Transfer.failedToStart(job, error: error))
            }
        }
    }

    /// Session and origin host, the unit of `httpMaximumConnectionsPerHost`.
    private static func hostKey(_ job: TransferJob, _ url: String) -> String {
        "\(job.sessionId) \(URLComponents(string: url)?.host?.lowercased() ?? url)"
    }

    /// The session's share (made on first use); ephemeral sessions get one too, so nothing crosses sessions.
    private func share(for job: TransferJob) throws -> CurlShareHandle {
        if let entry = shares[job.sessionId] {
            shares[job.sessionId]?.lastUsed = .now
            return entry.share
        }
        let share = try CurlShareHandle()
        shares[job.sessionId] = (share, .now)
        return share
    }

    private func releaseIdleShares() {
        let now = ContinuousClock.now
        let busy = Set(running.values.map(\.job.sessionId))
        for (session, entry) in shares where !busy.contains(session) && now - entry.lastUsed > shareIdleLifetime {
            shares[session] = nil
        }
    }

    /// A transfer's request ended: follow a redirect with the same handle, or report the outcome. A
    /// transfer whose delegate is still deciding about the response waits (out of the multi) for it.
    private func finish(_ easy: UnsafeMutableRawPointer, result: CURLcode) {
        guard let transfer = running[easy] else { return }
        multi.remove(transfer.easy)
        if case .response? = transfer.waiting {
            transfer.waiting = .response(finished: result)
            return
        }
        conclude(easy, transfer, transfer.requestEnded(result: result))
    }

    private func conclude(_ easy: UnsafeMutableRawPointer, _ transfer: Transfer, _ step: Transfer.Step) {
        switch step {
        case .redirect(let next):
            if transfer.job.decidesRedirects {
                transfer.waiting = .redirect(next)  // holds its slot, out of the multi, until the answer
                observer.transfer(transfer.job.id, asksToRedirect: transfer.head, to: next)
            } else {
                follow(easy, transfer, to: next)
            }
        case .challenge(let challenge):
            transfer.waiting = .challenge(challenge)  // holds its slot, out of the multi, until the answer
            observer.transfer(transfer.job.id, asksAbout: challenge)
        case .done(let outcome):
            running[easy] = nil
            observer.transfer(transfer.job.id, didComplete: outcome)
        }
    }

    /// Sends `request` (the redirect URLSession's rules made, or the delegate's own) with the same handle.
    private func follow(_ easy: UnsafeMutableRawPointer, _ transfer: Transfer, to request: OutgoingRequest) {
        observer.transfer(transfer.job.id, willRedirect: transfer.head, to: request)
        transfer.request = request
        do {
            try transfer.prepare()
            try multi.add(transfer.easy)
        } catch {
            running[easy] = nil
            observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: .init(curlError: error)))
        }
    }

    /// Fails transfers that moved no byte for their `timeoutIntervalForRequest`; returns how long the loop
    /// may sleep before the next deadline (at most a second).
    private func enforceIdleTimeouts() -> Int32 {
        let now = ContinuousClock.now
        var sleep: Duration = .seconds(1)
        for (easy, transfer) in running where transfer.waiting == nil {  // a delegate's time is not idle time
            let deadline = transfer.idleDeadline
            if deadline <= now {
                let seconds = transfer.job.timeoutIntervalForRequest
                abort(easy, transfer, failure: TransferFailure(
                    code: URLErrorCode.timedOut.rawValue, curlCode: 28, message: "no data for \(seconds) seconds"))
                if !waiting.isEmpty { sleep = .zero }  // its slot goes to the next queued transfer at once
            } else {
                sleep = min(sleep, deadline - now)
            }
        }
        let milliseconds = sleep.components.seconds * 1000 + sleep.components.attoseconds / 1_000_000_000_000_000
        return sleep == .zero ? 0 : Int32(max(1, min(1000, milliseconds + 1)))
    }

    /// Takes a transfer out of the multi and reports it ended with `failure` (cancelled by default).
    private func abort(
        _ easy: UnsafeMutableRawPointer, _ transfer: Transfer,
        failure: TransferFailure = TransferFailure(code: URLErrorCode.cancelled.rawValue, curlCode: 42, message: "cancelled")
    ) {
        multi.remove(transfer.easy)
        running[easy] = nil
        observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: failure))
    }
}
