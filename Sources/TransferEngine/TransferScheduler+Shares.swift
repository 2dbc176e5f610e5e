import Curl
import Foundation
import TransferModels

// Each session's connection, DNS and TLS-session cache (`CURLSH`) per network path, when they go, and what
// a network path that goes down takes with it.
extension TransferScheduler {
    struct ShareKey: Hashable {
        var sessionId: String
        var path: String?

        init(_ job: TransferJob) { (sessionId, path) = (job.sessionId, job.networkPath?.name) }
    }

    /// The session's share on the job's path (made on first use); ephemeral sessions get one too, so
    /// nothing crosses sessions.
    func share(for job: TransferJob) throws -> CurlShareHandle {
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
    func releaseIdleShares() {
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
    func losePath(_ name: String, multi: CurlMultiHandle) {
        for job in waiting.removeAll(where: { $0.networkPath?.name == name }) {
            let failure = TransferFailure(
                code: URLErrorCode.notConnectedToInternet.rawValue, curlCode: 7, message: "network path \(name) is down",
                reason: "networkPathLost")
            observer.transfer(job.id, didComplete: Transfer.failedToStart(job, failure: failure))
        }
        // A segmented download goes as one: its primary (parked or not) takes its part connections with it.
        let lost = running.values.filter {
            $0.job.networkPath?.name == name && $0.segments.connectionNumber == 0 && (!$0.machine.isWaiting || $0.isParked)
                && !$0.ridesOtherSubflows
        }
        for transfer in lost {
            abort(
                transfer, multi: multi,
                failure: TransferFailure(
                    code: URLErrorCode.networkConnectionLost.rawValue, curlCode: 56, message: "network path \(name) went down",
                    reason: "networkPathLost"))
        }
        let inUse = Set(running.values.map { ShareKey($0.job) })  // transfers held by a delegate's decision
        shares = shares.filter { $0.key.path != name || inUse.contains($0.key) }
    }
}
