import JSONCodec
import SessionTasks
import TransferModels

extension TaskRoutes {
    /// How many task bodies one batch may hold.
    static let batchLimit = 1...1000

    /// `POST /v1/sessions/{id}/tasks/batch`: each member is checked alone, exactly as the single create
    /// checks its body; the accepted ones are created in one transaction and started in order. The answer
    /// has one item per member, in order: the task, or the problem that refused the member (its `field`
    /// relative to the member), which created nothing.
    ///
    /// 201 when at least one task was created (as the single create: RFC 9110 §15.3.2, one or more new
    /// resources), 200 when every member was refused. No `Location`: there is no one resource to name.
    func createBatch(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        // Waiting for a thousand tasks is what `GET /v1/tasks/{id}?wait=` per task is for.
        if request.queryValue("wait") != nil {
            throw Problem.invalidValue("wait", "is not supported on a batch: wait on each task with GET /v1/tasks/{id}?wait=")
        }
        let members = try request.decodeJSON(TaskBatchRequest.self).tasks
        guard Self.batchLimit.contains(members.count) else {
            throw Problem.invalidValue("tasks", "must hold 1 to \(Self.batchLimit.upperBound) task bodies, not \(members.count)")
        }
        // All members would be refused alike; the single create answers this 409 too.
        guard session.state == .valid else { throw TaskStoreError.sessionNotValid }

        var items = [TaskBatchItem?](repeating: nil, count: members.count)
        var accepted: [(index: Int, task: PreparedTask)] = []
        for (index, member) in members.enumerated() {
            let checked: Result<PreparedTask, any Error>
            do {
                let body = try StrictJSONDecoder().decode(TaskCreateRequest.self, from: member)
                let metalink = try await metalinkContents(of: body, tenant: request.tenant)
                checked = .success(try prepare(body, session: session, tenant: request.tenant, metalink: metalink))
            } catch {
                checked = .failure(error)
            }
            switch checked {
            case .success(let prepared): accepted.append((index, prepared))
            case .failure(let error): items[index] = .problem(try Self.memberProblem(error))
            }
        }
        let created =
            accepted.isEmpty
            ? [] : try await tasks.create(tenant: request.tenant, session: session, requests: accepted.map(\.task.request))
        for (member, result) in zip(accepted, created) {
            switch result {
            case .success(let task):
                items[member.index] = .task(member.task.withSecret(wire(task)))
            case .failure(let error as TaskStoreError) where error == .sessionNotFound || error == .sessionNotValid:
                throw error  // invalidated (or deleted) since the lookup: the whole batch is refused, as one create would be
            case .failure(let error):
                items[member.index] = .problem(try Self.memberProblem(error))
            }
        }
        let anyCreated = created.contains { if case .success = $0 { true } else { false } }
        return try .json(TaskBatchResponse(items: items.compactMap { $0 }), status: anyCreated ? 201 : 200)
    }

    /// The problem that refused one member, as its own request would have been answered; an error that
    /// is the service's own fault fails the whole batch (a 500, as it would fail a single create).
    private static func memberProblem(_ error: any Error) throws -> Problem {
        guard let problem = ProblemMapping.problem(for: error) else { throw error }
        return problem
    }
}

/// The body of `POST /v1/sessions/{id}/tasks/batch`. Members are kept as parsed JSON so that each is
/// decoded alone: one bad member is that member's problem, with fields relative to it.
struct TaskBatchRequest: Decodable {
    var tasks: [JSONValue]
}

/// The answer: one item per member, in the members' order.
struct TaskBatchResponse: Encodable {
    var items: [TaskBatchItem]
}

/// One member's outcome: the created task, exactly as the single create answers it, or
/// `{"problem": {...}}`.
enum TaskBatchItem: Encodable {
    case task(TransferTask)
    case problem(Problem)

    private enum CodingKeys: String, CodingKey { case problem }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .task(let task):
            try task.encode(to: encoder)
        case .problem(let problem):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(problem, forKey: .problem)
        }
    }
}
