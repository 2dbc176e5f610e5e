import Foundation
import JSONCodec
import SessionTasks
import TransferModels

/// `/v1/sessions/{id}/tasks` and `/v1/tasks/{id}…`: create, read and control data, download and upload tasks.
struct TaskRoutes {
    let application: ApplicationLayer
    var tasks: TaskService { application.tasks }
    var sessions: SessionService { application.sessions }
    var queries: TaskQueries { application.queries }
    /// Schemes a request may use (http and https, plus what the operator enabled).
    let allowedSchemes: Set<String>
    /// `?wait=` and a followed `/data` hold one of the tenant's `streams` while they last.
    let streams: StreamQuota
    /// Followed bodies are cut when graceful shutdown begins.
    let shutdown: ShutdownSignal
    let encoded = EncodedTaskCache()
    /// Pages of sessions' task lists, current while no task row has changed.
    let listPages = ChangeCountedJSONCache()

    var routes: [Route] {
        [
            Route("POST", "/v1/sessions/{id}/tasks", steps: [.authenticated, .idempotent]) { try await create($0) },
            Route("POST", "/v1/sessions/{id}/tasks/batch", steps: [.authenticated, .idempotent]) { try await createBatch($0) },
            Route("GET", "/v1/sessions/{id}/tasks", steps: [.authenticated], fast: { try cachedList($0) }) { try await list($0) },
            Route(
                "GET", "/v1/tasks/{id}", steps: [.authenticated],
                fast: { request in
                    // A task in memory is answered on the HTTP thread, unless it is to be waited for.
                    guard let task = queries.cachedTask(id: request.parameter("id"), tenant: request.tenant) else { return nil }
                    if try Self.waitDuration(request) != nil, task.state != .completed { return nil }
                    return .encodedJSON(try encoded.json(for: task, wire: wire))
                }
            ) { request in
                let id = request.parameter("id")
                var task = try await tasks.requireTask(id, tenant: request.tenant)
                if let wait = try Self.waitDuration(request), task.state != .completed {
                    task = try await streams.holding(tenant: request.tenant) {
                        try await tasks.waitForCompletion(of: id, tenant: request.tenant, timeout: wait)
                    }
                }
                return .encodedJSON(try encoded.json(for: task, wire: wire))
            },
            Route("PATCH", "/v1/tasks/{id}", steps: [.authenticated]) { try await updateRateLimit($0) },
            Route("POST", "/v1/tasks/{id}/resume", steps: [.authenticated, .idempotent]) { request in
                try await naming("resume", request) {
                    try .json(wire(try await tasks.resume(taskId: request.parameter("id"), tenant: request.tenant)))
                }
            },
            Route("POST", "/v1/tasks/{id}/suspend", steps: [.authenticated, .idempotent]) { request in
                try await naming("suspend", request) {
                    try .json(wire(try await tasks.suspend(taskId: request.parameter("id"), tenant: request.tenant)))
                }
            },
            Route("POST", "/v1/tasks/{id}/cancel", steps: [.authenticated, .idempotent]) { request in
                try await naming("cancel", request) { try await cancel(request) }
            },
            Route("GET", "/v1/tasks/{id}/metrics", steps: [.authenticated]) { request in
                let task = try await tasks.requireTask(request.parameter("id"), tenant: request.tenant)
                guard task.state == .completed, let metrics = task.metrics else {
                    throw Problem.conflict("metrics are collected when the task completes")
                }
                return try .json(metrics)
            },
            Route("GET", APIPaths.taskData, steps: [.authenticated]) { try await data($0) },
            Route("PUT", APIPaths.taskBody, steps: [.authenticated], streamsBodyInto: { streamedBody(of: $0) }) { _ in
                throw Problem.internalError  // never called: the server answers a streamed body itself
            },
            Route("GET", APIPaths.taskFile, steps: [.authenticated]) { try await file($0) },
            Route("DELETE", APIPaths.taskFile, steps: [.authenticated]) { try await deleteFile($0) },
        ]
    }

    private func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        let body = try request.decodeJSON(TaskCreateRequest.self)
        let metalink = try await metalinkContents(of: body, tenant: request.tenant)
        let prepared = try prepare(body, session: session, tenant: request.tenant, metalink: metalink)
        // A task created suspended cannot complete within the wait: it is answered at once.
        let wait = try Self.waitDuration(request).flatMap { prepared.request.resume ? $0 : nil }
        // The wait's slot is taken before the task exists: a refused wait creates nothing.
        let slot = try wait.map { _ in try streams.acquire(tenant: request.tenant) }
        defer { slot?.release() }
        var task = try await tasks.create(tenant: request.tenant, session: session, request: prepared.request)
        if let wait, task.state != .completed {
            task = try await tasks.waitForCompletion(of: task.id, tenant: request.tenant, timeout: wait)
        }
        return try .json(prepared.withSecret(wire(task)), status: 201, headers: [("Location", "/v1/tasks/\(task.id)")])
    }

    /// A task body checked before anything is created — by the single create and by each member of a
    /// batch alike: validated against the session and the allowed schemes, a `file:` URL against the
    /// file root, resume data against the tenant.
    func prepare(
        _ body: TaskCreateRequest, session: SessionRecord, tenant: String, metalink: MetalinkContents? = nil
    ) throws -> PreparedTask {
        var validated = try body.validated(session: session.configuration, allowedSchemes: allowedSchemes, metalink: metalink)
        if let refusal = tasks.fileRootRefusal(of: validated) { throw Problem.invalidValue("request.url", refusal) }
        if let token = validated.resumeData, !queries.opensResumeData(token, tenant: tenant) {
            throw Problem.invalidValue("resumeData", "is not resume data this service made for this tenant")
        }
        // Every webhook is signed: a handler with no secret of its own, on a session with none to sign
        // with (the shared session), gets one made here, returned once, as a delegate's is.
        var generatedSecret: String?
        if validated.completion != nil, validated.completionSecret == nil, session.delegateSecret == nil {
            generatedSecret = WebhookSecret.generate()
            validated.completionSecret = generatedSecret
        }
        return PreparedTask(request: validated, generatedSecret: generatedSecret)
    }

    private func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        let query = try TaskListQuery(request, sessionId: session.id, cursors: application.cursors)
        let json = try await listPages.json(query.key, count: queries.taskChangeCount) {
            let page = try await tasks.list(
                sessionId: session.id, kind: query.kind, state: query.state, after: query.pagination.after,
                limit: query.pagination.limit)
            let items = page.map(wire)
            let json = try WireJSON.encode(try query.pagination.page(items, last: page.last?.rowid))
            // A running task's rate changes with no commit: a page showing one is kept only briefly.
            let showsRates = items.contains { $0.state == .running }
            return (json, keptFor: showsRates ? EncodedTaskCache.runningTaskLifetime : nil)
        }
        return .encodedJSON(json)
    }

    /// The list page from memory on the HTTP thread, when its session is in memory and no task row
    /// changed since the page was made (nil: the asynchronous path).
    private func cachedList(_ request: HTTPRequest) throws -> HTTPResponse? {
        let id = request.parameter("id")
        guard id != "shared", sessions.cachedSession(id: id, tenant: request.tenant) != nil else { return nil }
        let query = try TaskListQuery(request, sessionId: id, cursors: application.cursors)
        return listPages.cached(query.key, count: queries.taskChangeCount).map(HTTPResponse.encodedJSON)
    }

    /// Runs a control call: a refusal by the task's state is a 409 naming the call and the state it found.
    private func naming(_ call: String, _ request: HTTPRequest, _ body: () async throws -> HTTPResponse) async throws -> HTTPResponse {
        do {
            return try await body()
        } catch let error as TaskStoreError where error == .invalidStateTransition {
            let task = try await tasks.requireTask(request.parameter("id"), tenant: request.tenant)
            // Refused only once the task is ending; its row may not say so yet (the end of its transfer is
            // being recorded, or a cancel is under way), and "the task is running" would contradict the 409.
            let isEnding = task.state == .running || task.state == .suspended
            let state = isEnding ? "ending (its completion is being recorded)" : task.state.rawValue
            throw Problem.conflict("\(call) is not possible now: the task is \(state)")
        }
    }

    private func cancel(_ request: HTTPRequest) async throws -> HTTPResponse {
        struct CancelRequest: Decodable { var byProducingResumeData: Bool?, closeCode: Int?, reason: String? }
        let id = request.parameter("id")
        let body = try request.decodeJSON(CancelRequest.self)
        if body.closeCode != nil || body.reason != nil { return try await cancelWebSocket(request, body.closeCode, body.reason) }
        // Only a download has resume data to produce; asked of another task, it is a plain cancel.
        var producing = body.byProducingResumeData ?? false
        if producing { producing = try await tasks.requireTask(id, tenant: request.tenant).kind == .download }
        var task = try await tasks.cancel(taskId: id, tenant: request.tenant, producingResumeData: producing)
        if producing, task.state != .completed {
            // `cancel(byProducingResumeData:)` answers once the transfer has stopped and its file is kept.
            task = try await tasks.waitForCompletion(of: id, tenant: request.tenant, timeout: .seconds(10))
        }
        let resumeData = producing ? task.error?.userInfo[TaskService.resumeDataKey] : nil
        return try .json(CancelResponse(task: wire(task), resumeData: resumeData))
    }

    /// `cancel(with:reason:)` of a webSocket task: a close code a close frame may carry (1000–1003,
    /// 1007–1014, 3000–4999) and a reason of at most 123 characters, cut to the 123 UTF-8 bytes a close
    /// frame holds. Asked of another kind of task, it is a plain cancel.
    private func cancelWebSocket(_ request: HTTPRequest, _ closeCode: Int?, _ reason: String?) async throws -> HTTPResponse {
        let id = request.parameter("id")
        let code = closeCode ?? 1000
        guard [1000...1003, 1007...1014, 3000...4999].contains(where: { $0.contains(code) }) else {
            throw Problem.invalidValue("closeCode", "must be a close code a close frame may carry: 1000-1003, 1007-1014 or 3000-4999")
        }
        guard (reason ?? "").unicodeScalars.count <= 123 else { throw Problem.invalidValue("reason", "must be at most 123 characters") }
        var sent = ""
        for character in reason ?? "" {
            guard sent.utf8.count + String(character).utf8.count <= 123 else { break }
            sent.append(character)
        }
        guard try await tasks.requireTask(id, tenant: request.tenant).kind == .webSocket else {
            return try .json(CancelResponse(task: wire(try await tasks.cancel(taskId: id, tenant: request.tenant)), resumeData: nil))
        }
        let task = try await tasks.connections.cancelWebSocket(taskId: id, tenant: request.tenant, closeCode: code, reason: sent)
        return try .json(CancelResponse(task: wire(task), resumeData: nil))
    }

    /// A task as the API answers it: the row's view, with the rate of its attempt when this node runs it.
    func wire(_ task: TaskRecord) -> TransferTask { tasks.withLiveRate(task.wire) }

    /// `?wait=SECONDS` (0…300), nil when absent.
    static func waitDuration(_ request: HTTPRequest) throws -> Duration? {
        guard let text = request.queryValue("wait") else { return nil }
        guard let seconds = Double(text), seconds.isFinite, (0...300).contains(seconds) else {
            throw Problem.invalidValue("wait", "must be a number of seconds from 0 to 300")
        }
        return .milliseconds(Int64(seconds * 1000))
    }
}

/// A task body that passed every check made before the store: what to create, and the completion
/// secret made for it (answered once, with the created task).
struct PreparedTask {
    var request: ValidatedTaskRequest
    var generatedSecret: String?

    /// The created task as the API answers it: with the completion secret made for it.
    func withSecret(_ task: TransferTask) -> TransferTask {
        var wire = task
        wire.completionSecret = generatedSecret
        return wire
    }
}

/// The answer of `cancel`: the task, and the resume data it produced.
struct CancelResponse: Encodable {
    var task: TransferTask
    var resumeData: String?
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(task, forKey: .task)
        try container.encode(resumeData, forKey: .resumeData)
    }
    enum CodingKeys: String, CodingKey { case task, resumeData }
}
