import Foundation
import Logging
import NetworkPaths
import TransferEngine
import TransferModels
import TransferStore

// Network paths as URLSession meets them: a task leaves by the most preferred available path its flags
// allow; with none, it waits (`waitsForConnectivity`, always for background sessions) or fails at once
// with -1009; a path that goes down ends its transfers (-1005), and the tasks that ride outages continue
// on another path.
//
// `networksChanged` is the monitor's handler (set by the composition root, `URLSessionService`).

/// No available network path allows the request; `reason` is `NSURLErrorNetworkUnavailableReasonKey`'s.
struct NoUsablePath: Error {
    var reason: String?
}

extension TaskService {
    static let networkUnavailableReasonKey = "NSURLErrorNetworkUnavailableReasonKey"

    /// The path a request leaves by, with what its flags (the session's AND the request's) allow.
    func networkPath(for request: URLRequestSnapshot) throws(NoUsablePath) -> NetworkPath {
        let choice = networks.choose(
            allowsCellularAccess: request.allowsCellularAccess, allowsExpensiveNetworkAccess: request.allowsExpensiveNetworkAccess,
            allowsConstrainedNetworkAccess: request.allowsConstrainedNetworkAccess)
        switch choice {
        case .use(let path): return path
        case .unavailable(let reason): throw NoUsablePath(reason: reason)
        }
    }

    /// The job's path and the proxy it implies: the session's `connectionProxyDictionary` when it has one
    /// (`{}` is direct), else the system proxy — the path's own, or the operator's `URLSESSIOND_PROXY`.
    func route(_ job: inout TransferJob, on path: NetworkPath, configuration session: SessionConfiguration) {
        job.networkPath = TransferNetworkPath(
            name: path.name, curlInterface: path.curlInterface, interface: path.interfaceDescription, isCellular: path.isCellular,
            isExpensive: path.isExpensive, isConstrained: path.isConstrained)
        if let dictionary = session.connectionProxyDictionary {
            // A stream's TCP connection is tunnelled as HTTPS is (CONNECT): the HTTPS proxy, else SOCKS.
            let target = job.stream.map { "https://\($0.hostName)" } ?? job.request.url
            (job.proxy, job.noProxy) = Self.proxy(for: target, dictionary)
        } else if let system = path.proxy ?? configuration.systemProxy {
            (job.proxy, job.noProxy) = (system, configuration.systemNoProxy)
        }
        job.trafficClass = Self.trafficClass(of: session.networkServiceType)
    }

    /// What an attempt without a usable path becomes: a wait, or -1009 (with the reason a path was refused).
    func attemptWithoutPath(
        _ number: Int, of task: TaskRecord, session: SessionRecord, _ noPath: NoUsablePath
    ) throws(TransferError) -> TaskLifecycle.Input {
        let url = task.currentRequest?.url ?? task.originalRequest?.url
        guard session.configuration.waitsForConnectivity else {
            throw TransferError(
                .notConnectedToInternet, failingURL: url, userInfo: noPath.reason.map { [Self.networkUnavailableReasonKey: $0] } ?? [:])
        }
        guard resourceTimeLeft(of: task, session: session) > 0 else {
            throw TransferError(.timedOut, failingURL: url, userInfo: ["reason": "timeoutIntervalForResource"])
        }
        return .waitForConnectivity(attempt: number)
    }

    /// Seconds left of the task's `timeoutIntervalForResource`, counted from its first start.
    func resourceTimeLeft(of task: TaskRecord, session: SessionRecord) -> Double {
        (task.startedAt ?? task.createdAt).addingTimeInterval(session.configuration.timeoutIntervalForResource).timeIntervalSinceNow
    }

    /// A task begins waiting: announced once, woken by the next change of the paths or at its resource
    /// deadline (whichever comes first moves its lifecycle on; the other finds a stale timer).
    func awaitConnectivity(_ record: TaskRecord, timer: Int, announce: Bool) async {
        if announce {
            let summary = TaskSummary(
                id: record.id, taskIdentifier: record.taskIdentifier, kind: record.kind, state: .running,
                taskDescription: record.taskDescription)
            writer.append([PendingEvent(sessionId: record.sessionId, taskId: record.id, event: .taskIsWaitingForConnectivity(summary))])
            logger.info("A task waits for connectivity", metadata: ["task.id": "\(record.id)"])
        }
        connectivityWaiters.withLock { $0[record.id] = timer }
        // A path that came up between the choice and now woke nobody: look once more.
        if let request = record.currentRequest ?? record.originalRequest, (try? networkPath(for: request)) != nil {
            connectivityWaiters.withLock { _ = $0.removeValue(forKey: record.id) }
            return schedule(timer, of: record.id, after: 0)
        }
        if let session = try? await store.sessions.session(id: record.sessionId, tenant: record.tenant) {
            schedule(timer, of: record.id, after: max(0, resourceTimeLeft(of: record, session: session)))
        }
    }

    /// The paths changed: transfers on a path that went down end (-1005) and, when some path is
    /// available, every waiting task looks for a path again.
    func networksChanged(_ states: [NetworkPathState]) {
        let lost = pathAvailability.withLock { known -> [String] in
            defer { known = Dictionary(uniqueKeysWithValues: states.map { ($0.path.name, $0.isAvailable) }) }
            return states.filter { !$0.isAvailable && known[$0.path.name] != false }.map(\.path.name)
        }
        for name in lost { engine.pathLost(name) }
        guard states.contains(where: \.isAvailable) else { return }
        let waiting = connectivityWaiters.withLock { waiters in
            defer { waiters.removeAll() }
            return waiters
        }
        for (taskId, timer) in waiting { schedule(timer, of: taskId, after: 0) }
    }

    /// `networkServiceType` → the TOS byte of the task's sockets (DSCP << 2), as Apple maps service
    /// classes to DSCP (RFC 4594): nil leaves the system's default.
    static func trafficClass(of type: NetworkServiceType) -> Int32? {
        let dscp: Int32? =
            switch type {
            case .default: nil
            case .background: 8  // CS1, lower effort
            case .responsiveData: 18  // AF21, low-latency data
            case .avStreaming, .responsiveAV, .video: 34  // AF41, multimedia
            case .voice: 46  // EF, telephony
            case .callSignaling: 24  // CS3, signalling
            }
        return dscp.map { $0 << 2 }
    }
}
