import Foundation
import HTTPCaching
import Logging
import NetworkPaths
import TransferEngine
import TransferModels
import TransferStore

/// Turns a task and its session into the engine's job: the request under the session's configuration
/// (headers, body, timeouts, TLS, trust), the network path and proxy its flags allow, its cookies,
/// credentials and cached response. It starts nothing: a stale cached response that should be revalidated
/// in the background is returned for the caller to start.
final class JobFactory: Sendable {
    let store: TransferStore
    let configuration: TaskService.Configuration
    let files: TaskFiles
    let trustBundles: TrustBundles
    let networks: NetworkPathMonitor
    let cookieStorages: CookieStorages
    let credentialStorages: CredentialStorages
    let urlCaches: URLCaches

    init(
        store: TransferStore, configuration: TaskService.Configuration, files: TaskFiles, trustBundles: TrustBundles,
        networks: NetworkPathMonitor, storages: SessionStorages
    ) {
        self.store = store
        self.configuration = configuration
        self.files = files
        self.trustBundles = trustBundles
        self.networks = networks
        (self.cookieStorages, self.urlCaches, self.credentialStorages) = (storages.cookies, storages.urlCaches, storages.credentials)
    }

    /// A stale cached response served at once, to be revalidated in the background (RFC 5861).
    struct StaleRevalidation {
        let conditions: HTTPFields
        let storedHead: ResponseHead
        let placement: URLCaches.Placement
    }

    /// The engine's job for a task: its current request under its session's configuration, on the network
    /// path its flags allow (`NoUsablePath` when none is available).
    func makeJob(for task: TaskRecord, session: SessionRecord, attempt: Int) async throws -> (
        job: TransferJob, staleRevalidation: StaleRevalidation?
    ) {
        guard
            let snapshot = task.currentRequest ?? task.originalRequest ?? TaskRunner.streamRequest(of: task, session.configuration)
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
        (job.rateLimit, job.sessionRateLimit) = (task.rateLimit, configuration.rateLimit)
        route(&job, on: path, configuration: configuration)
        job.multipathServiceType = configuration.multipathServiceType
        job.multipathLease = await networks.multipath.lease(configuration.multipathServiceType)
        if task.kind == .stream {
            // A TCP connection: nothing of HTTP goes on it; a client identity is offered if TLS starts.
            job.credentials = try await credentialStorages.credentials(
                tenant: session.tenant, sessionId: session.id, configuration: configuration)
            return (job, nil)
        }
        if task.kind == .webSocket {
            // A connection, not a request: no body, no cache, no file; cookies and credentials go on its handshake.
            job.webSocket = task.webSocket ?? WebSocketTaskOptions()
            job.cookies = try await cookieStorages.cookies(for: session, request: snapshot)
            job.credentials = try await credentialStorages.credentials(
                tenant: session.tenant, sessionId: session.id, configuration: configuration)
            return (job, nil)
        }
        job.downloadPath = files.newPartialPath(of: task.id)
        if task.kind == .download {
            job.segments = Self.segmentPolicy(task.segments)
            job.mirrors = Self.mirrorSources(task.sources)
            job.readsMetalink = task.sources?.metalink?.url != nil && task.sources?.mirrors.isEmpty == true
        }
        job.cookies = try await cookieStorages.cookies(for: session, request: snapshot)
        job.credentials = try await credentialStorages.credentials(
            tenant: session.tenant, sessionId: session.id, configuration: configuration)
        if snapshot.cachePolicy == .reloadIgnoringLocalAndRemoteCacheData,
            !job.request.headers.contains(where: { $0.name.caseInsensitiveCompare("Cache-Control") == .orderedSame })
        {
            job.request.headers += HTTPCacheRules.reloadFields  // intermediaries' caches are bypassed too
        }
        guard task.resumeData == nil else { return (job, nil) }
        let placement = urlCaches.placement(of: session)
        let found = try await urlCaches.storedResponse(for: job.request, policy: snapshot.cachePolicy, placement: placement)
        job.storedResponse = found?.response
        guard let revalidation = found?.revalidation, let placement else { return (job, nil) }
        return (job, StaleRevalidation(conditions: revalidation.conditions, storedHead: revalidation.head, placement: placement))
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
            return .stream(TaskRunner.uploadStream(for: snapshot))
        case nil:
            return snapshot.httpBody.map { .bytes(Array($0)) } ?? .none
        }
    }
}
