import Foundation
import HTTPCaching
import Logging
import TransferEngine
import TransferModels
import TransferStore

extension TaskService {
    /// Prepares attempt `number` of a task that runs: with `askDelayed`, `task.willBeginDelayedRequest`
    /// decides first (`continueLoading`, `cancel`, or `useNewRequest`; no answer continues, as URLSession
    /// does without the method); then the engine's job is built — with `continuing`, a download whose
    /// partial file was checkpointed continues it (`Range` + `If-Range`). Returns the lifecycle's next
    /// input; a `TransferError` means the task cannot start.
    func prepareAttempt(_ number: Int, of record: TaskRecord, continuing: Bool, askDelayed: Bool) async throws
        -> TaskLifecycle.Input
    {
        guard let session = try await store.sessions.session(id: record.sessionId, tenant: record.tenant) else {
            throw TaskStoreError.sessionNotFound
        }
        var task = record
        if askDelayed {
            task.earliestBeginDate = nil  // this attempt has waited
            if session.delegate?.decisions.contains(.taskWillBeginDelayedRequest) == true,
                let request = task.currentRequest ?? task.originalRequest
            {
                let probe = ActiveTask(record: task, session: session, started: Date(), partialPath: nil, number: number)
                let answer = await askDelegate(
                    probe.event { .willBeginDelayedRequest($0, request: request) }, timeout: probe.decisionTimeout)
                switch delayedDisposition(answer, task: probe) {
                case .continueLoading:
                    break
                case .cancel:
                    return .cancel(producingResumeData: false)
                case .useNewRequest(let replacement):
                    try await store.tasks.replaceCurrentRequest(id: task.id, with: replacement)
                    task.currentRequest = replacement
                }
            }
        }
        var job: TransferJob
        do {
            job = try await makeJob(for: task, session: session, attempt: number)
        } catch let noPath as NoUsablePath {
            return try attemptWithoutPath(number, of: task, session: session, noPath)
        } catch {
            files.removeFetchedBlob(of: TransferID(taskId: task.id, attempt: number))  // the engine will not read it
            throw error
        }
        if continuing, task.kind == .download {
            // The stopped attempt's checkpoint and response head may still be queued for the store.
            await writer.flush()
            if let latest = try await store.tasks.task(id: task.id) {
                (task.partialPath, task.response) = (latest.partialPath, latest.response)
            }
        }
        if continuing, let resume = Self.resumePoint(of: task) {
            (job.downloadPath, job.resumeOffset, job.ifRange) = (resume.path, resume.offset, resume.validator)
            job.resumeSegments = resume.segments
            job.storedResponse = nil  // the kept bytes continue the network load
        } else {
            if let stale = task.partialPath { TaskFiles.removePartialFile(stale) }  // an attempt that cannot be continued
            if task.resumeData != nil { continueFromResumeData(task, job: &job) }  // a token's file, once
        }
        let prepared = job
        let accepted = table.withLock { state -> Bool in
            guard var entry = state.entries[task.id], entry.lifecycle.activity == .preparing(attempt: number) else { return false }
            let started = entry.firstStarted ?? Date()
            var active = ActiveTask(record: task, session: session, started: started, partialPath: prepared.downloadPath, number: number)
            if case .stream(let stream) = prepared.request.body { active.uploadStream = stream }
            var job = prepared
            job.decidesRedirects = active.decidesRedirects
            job.decidesResponse = active.decidesResponse
            job.decidesChallenges = active.decidesChallenges
            job.decidesSessionChallenges = active.decidesChallenges  // either method hears TLS challenges
            entry.firstStarted = started
            entry.prepared = (job, active)
            state.entries[task.id] = entry
            return true
        }
        if !accepted {
            files.removeFetchedBlob(of: TransferID(taskId: task.id, attempt: number))  // the engine will not read it
            logger.debug("A prepared attempt is no longer wanted", metadata: ["task.id": "\(task.id)"])
        }
        return .prepared(attempt: number)
    }

    /// The engine's job for a task: its current request under its session's configuration, on the network
    /// path its flags allow (`NoUsablePath` when none is available).
    func makeJob(for task: TaskRecord, session: SessionRecord, attempt: Int) async throws -> TransferJob {
        guard
            let snapshot = task.currentRequest ?? task.originalRequest ?? Self.streamRequest(of: task, session.configuration)
                ?? store.resumedRequest(of: task)
        else {
            // Resume data the store no longer accepts (its key changed): nothing says what to fetch.
            throw TransferError(.cannotWriteToFile, userInfo: ["reason": "resumeDataInvalid"])
        }
        let configuration = session.configuration
        let path = try networkPath(for: snapshot)
        let request = OutgoingRequest(
            url: snapshot.url, method: snapshot.httpMethod,
            headers: Self.mergedHeaders(request: snapshot.allHTTPHeaderFields, session: configuration.httpAdditionalHeaders),
            body: try await body(of: task, snapshot: snapshot, attempt: attempt))
        try checkFileRoot(request)
        var job = TransferJob(
            id: TransferID(taskId: task.id, attempt: attempt), sessionId: task.sessionId, kind: Self.engineKind(task.kind), request: request
        )
        job.tenant = task.tenant
        job.priority = task.priority
        job.isDiscretionary = configuration.isDiscretionary
        job.timeoutIntervalForRequest = snapshot.timeoutInterval
        job.timeoutIntervalForResource = configuration.timeoutIntervalForResource
        job.httpMaximumConnectionsPerHost = configuration.httpMaximumConnectionsPerHost
        job.sharesConnections = configuration.kind != .ephemeral
        job.tlsMinimumVersion = configuration.tlsMinimumSupportedProtocolVersion.rawValue
        job.tlsMaximumVersion = configuration.tlsMaximumSupportedProtocolVersion.rawValue
        job.pinnedPublicKeys = configuration.serverTrust?.pinnedPublicKeys.map { $0.joined(separator: ";") }
        if let anchors = configuration.serverTrust?.anchors {
            job.certificateAuthoritiesFile = try trustBundles.path(ofSession: session.id, anchors: anchors)
        }
        job.stream = task.stream
        route(&job, on: path, configuration: configuration)
        if task.kind == .stream {
            // A TCP connection: nothing of HTTP goes on it; a client identity is offered if TLS starts.
            job.credentials = try await credentialStorages.credentials(
                tenant: session.tenant, sessionId: session.id, configuration: configuration)
            return job
        }
        if task.kind == .webSocket {
            // A connection, not a request: no body, no cache, no file; cookies and credentials go on its handshake.
            job.webSocket = task.webSocket ?? WebSocketTaskOptions()
            job.cookies = try await cookieStorages.cookies(for: session, request: snapshot)
            job.credentials = try await credentialStorages.credentials(
                tenant: session.tenant, sessionId: session.id, configuration: configuration)
            return job
        }
        job.downloadPath = newPartialPath(of: task.id)
        if task.kind == .download { job.segments = Self.segmentPolicy(task.segments) }
        job.cookies = try await cookieStorages.cookies(for: session, request: snapshot)
        job.credentials = try await credentialStorages.credentials(
            tenant: session.tenant, sessionId: session.id, configuration: configuration)
        if snapshot.cachePolicy == .reloadIgnoringLocalAndRemoteCacheData,
            !job.request.headers.contains(where: { $0.name.caseInsensitiveCompare("Cache-Control") == .orderedSame })
        {
            job.request.headers += HTTPCacheRules.reloadFields  // intermediaries' caches are bypassed too
        }
        if task.resumeData == nil {
            let placement = urlCaches.placement(of: session)
            let found = try await urlCaches.storedResponse(for: job.request, policy: snapshot.cachePolicy, placement: placement)
            job.storedResponse = found?.response
            if let revalidation = found?.revalidation, let placement {
                revalidateInBackground(job, conditions: revalidation.conditions, storedHead: revalidation.head, placement: placement)
            }
        }
        return job
    }

    /// A partial file for one attempt of the task: `<id>.<random>.part`.
    func newPartialPath(of taskId: String) -> String {
        let attempt = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        return downloadsPath + "/\(taskId).\(attempt).part"
    }

    func finishedPath(of taskId: String) -> String {
        downloadsPath + "/" + taskId
    }

    private func body(of task: TaskRecord, snapshot: URLRequestSnapshot, attempt: Int) async throws -> OutgoingRequest.Body {
        switch task.uploadSource {
        case .blob(let id, let size):
            let path: String?
            do {
                path = try await files.localBlobFile(id, size: size, of: task, attempt: attempt)
            } catch {
                // The object store did not give the blob back (logged): the attempt cannot start.
                throw TransferError(.fileDoesNotExist, failingURL: snapshot.url, userInfo: ["reason": "blobUnavailable"])
            }
            guard let path else {
                throw TransferError(.fileDoesNotExist, failingURL: snapshot.url, userInfo: ["reason": "blobMissing"])
            }
            return .file(path: path, length: size)
        case .inline:
            guard let data = try await store.tasks.inlineUploadData(taskId: task.id) else {
                throw TransferError(.requestBodyStreamExhausted, failingURL: snapshot.url)
            }
            return .bytes(Array(data))
        case .stream:
            return .stream(Self.uploadStream(for: snapshot))
        case nil:
            return snapshot.httpBody.map { .bytes(Array($0)) } ?? .none
        }
    }

    /// `httpAdditionalHeaders` under the request's own fields: the request wins, names compared without case.
    static func mergedHeaders(request: [String: String], session: [String: String]) -> [(name: String, value: String)] {
        let own = Set(request.keys.map { $0.lowercased() })
        let inherited = session.filter { !own.contains($0.key.lowercased()) }
        return (request.sorted { $0.key < $1.key } + inherited.sorted { $0.key < $1.key }).map { ($0.key, $0.value) }
    }

    static func engineKind(_ kind: TaskKind) -> TransferJob.Kind {
        switch kind {
        case .data: .data
        case .download: .download
        case .upload: .upload
        case .webSocket: .webSocket
        case .stream: .stream
        }
    }

    /// `connectionProxyDictionary` → a libcurl proxy URL for this request's scheme, and its exceptions.
    static func proxy(for url: String, _ dictionary: ProxyDictionary?) -> (String?, String?) {
        guard let dictionary else { return (nil, nil) }
        let exceptions = dictionary.ExceptionsList.map { $0.joined(separator: ",") }
        let isHTTPS = url.lowercased().hasPrefix("https:") || url.lowercased().hasPrefix("wss:")
        if isHTTPS, dictionary.HTTPSEnable == true, let host = dictionary.HTTPSProxy {
            return ("http://\(host):\(dictionary.HTTPSPort ?? 443)", exceptions)
        }
        if !isHTTPS, dictionary.HTTPEnable == true, let host = dictionary.HTTPProxy {
            return ("http://\(host):\(dictionary.HTTPPort ?? 80)", exceptions)
        }
        if dictionary.SOCKSEnable == true, let host = dictionary.SOCKSProxy {
            return ("socks5h://\(host):\(dictionary.SOCKSPort ?? 1080)", exceptions)
        }
        return (nil, nil)
    }
}
