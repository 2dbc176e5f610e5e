import Foundation
import SessionTasks
import TransferModels
import WebSockets

/// `GET /v1/tasks/{id}/socket`: a WebSocket upgrade that joins the caller's socket to a webSocket task's
/// connection through the service (`WebSocketRelay`). One relay per task at a time; while it is attached
/// it is the only reader of the task's received messages (`GET /messages` gets 409).
struct WebSocketRelayRoutes {
    let tasks: TaskService
    let streams: StreamQuota
    let shutdown: ShutdownSignal
    let relays = WebSocketRelayLoop()

    /// How long an upgrade waits for a task that is still connecting to its origin.
    static let openTimeout: Duration = .seconds(30)

    init(tasks: TaskService, streams: StreamQuota, shutdown: ShutdownSignal) {
        self.tasks = tasks
        self.streams = streams
        self.shutdown = shutdown
        shutdown.onTrigger { [relays] in relays.shutDown() }
    }

    var routes: [Route] {
        [Route("GET", "/v1/tasks/{id}/socket", steps: [.authenticated]) { try await relay($0) }]
    }

    /// Checks the upgrade (RFC 6455 §4.2.1), finds the task's open connection (waiting while it connects),
    /// takes its buffer and one of the tenant's streams, and answers 101; MHD then hands the socket to the
    /// relays' loop. A 101 that is never sent (the caller left) gives the buffer and the stream back.
    private func relay(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = request.parameter("id")
        let task = try await tasks.requireTask(id, tenant: request.tenant)  // 404 before anything about the upgrade
        let handshake: WebSocketServerHandshake
        do {
            handshake = try WebSocketServerHandshake(method: request.method) { name in
                let values = request.headers.filter { $0.name == name.lowercased() }.map(\.value)
                return values.isEmpty ? nil : values.joined(separator: ", ")
            }
        } catch {
            var problem =
                error.status == 426
                ? Problem(status: 426, slug: "upgrade-required", title: "Upgrade Required", detail: error.detail, field: error.field)
                : Problem(status: 400, slug: "invalid-upgrade", title: "Bad Request", detail: error.detail, field: error.field)
            problem.headers = error.responseFields
            throw problem
        }
        let channel = try await openChannel(task, tenant: request.tenant)
        let slot = try streams.acquire(tenant: request.tenant)
        switch channel.attachRelay(wake: { [relays] in relays.wake() }) {
        case .attached: break
        case .taken: throw Problem.conflict("a relay is already attached to this task; one at a time")
        case .notOpen: throw Problem.conflict("the task's WebSocket connection is closing")
        }
        let upgrade = ConnectionUpgrade(
            takeOver: { [relays] connection in relays.start(connection, channel: channel, slot: slot) },
            abandoned: {
                channel.detachRelay()
                slot.release()
            })
        return HTTPResponse(status: 101, headers: handshake.responseFields(protocol: channel.chosenProtocol), body: .upgrade(upgrade))
    }

    /// The task's open channel: 409 for another kind of task or one whose connection is not open; a task
    /// still connecting is waited for (up to `openTimeout`).
    private func openChannel(_ task: TaskRecord, tenant: String) async throws -> TaskWebSocket {
        let id = task.id
        guard task.kind == .webSocket else {
            throw Problem.conflict("task \(id) is a \(task.kind.rawValue) task; only a webSocket task's connection can be relayed")
        }
        let (current, channel) = try await tasks.connections.webSocketChannel(
            of: id, tenant: tenant, waiting: Self.openTimeout, while: { !shutdown.isTriggered })
        guard let channel, channel.state == .open else {
            throw Problem.conflict(
                "the task's WebSocket connection is not open (the task is \(current.state.rawValue), or its connection is closing)")
        }
        return channel
    }
}
