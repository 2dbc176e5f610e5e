import Foundation
import JSONCodec
import SessionTasks
import TransferModels

/// `/v1/tasks/{id}/read`, `/write`, `/closeRead`, `/closeWrite` and `/startSecureConnection` of stream tasks:
/// `URLSessionStreamTask`'s `readData(ofMinLength:maxLength:timeout:)`, `write(_:timeout:)`, `closeRead()`,
/// `closeWrite()` and `startSecureConnection()`. Reads and writes answer as their completion handlers are
/// called: 200 with the bytes or the error (a timeout's -1001); a 409 says the connection cannot take the call.
struct StreamRoutes {
    let tasks: TaskService
    let streams: StreamQuota

    /// Longest `timeout` of a read or a write, in seconds (a read is a long-poll).
    static let maximumTimeout = 300.0
    static let defaultTimeout = 60.0
    /// How long a call waits for the channel of a task that runs but whose connection the loop has not taken
    /// up yet (it queues behind the connection limit), at most.
    static let channelWait: Duration = .seconds(10)

    var routes: [Route] {
        [
            Route("POST", "/v1/tasks/{id}/write", steps: [.authenticated, .idempotent]) { try await write($0) },
            Route("GET", "/v1/tasks/{id}/read", steps: [.authenticated]) { try await read($0) },
            Route("POST", "/v1/tasks/{id}/closeRead", steps: [.authenticated, .idempotent]) { request in
                try await close(request) { $0.closeRead() }
            },
            Route("POST", "/v1/tasks/{id}/closeWrite", steps: [.authenticated, .idempotent]) { request in
                try await close(request) { $0.closeWrite() }
            },
            Route("POST", "/v1/tasks/{id}/startSecureConnection", steps: [.authenticated, .idempotent]) { request in
                try await close(request) { $0.startSecureConnection() }
            },
        ]
    }

    /// `write(_:timeout:)`: `{"data": "<base64>", "timeout": S}`, or the bytes themselves as
    /// `application/octet-stream` with `?timeout=S`; answered once every byte is written (after what was
    /// queued before), or at the timeout.
    private func write(_ request: HTTPRequest) async throws -> HTTPResponse {
        let bytes: [UInt8]
        let timeout: Double
        if Self.mediaType(request) == "application/octet-stream" {
            bytes = request.body
            timeout = try Self.seconds(request.queryValue("timeout"), field: "timeout")
        } else {
            let body = try request.decodeJSON(StreamWriteRequest.self)
            bytes = try body.bytes()
            timeout = try Self.seconds(body.timeout.map { "\($0)" }, field: "timeout")
        }
        let (task, channel) = try await openChannel(request)
        switch await channel.write(bytes, timeout: Self.duration(timeout)) {
        case .written: return try .json(StreamWriteAnswer())
        case .timedOut: return try .json(StreamWriteAnswer(error: TransferError(.timedOut)))
        case .notOpen: throw Self.notOpen(task.state, "its write side is closed")
        }
    }

    /// `readData(ofMinLength:maxLength:timeout:)`: `minBytes` (default 1) up to `maxBytes` (default 65,536, at
    /// most 4 MiB), waiting up to `timeout` seconds (default 60).
    private func read(_ request: HTTPRequest) async throws -> HTTPResponse {
        let maxBytes = try request.integerQuery("maxBytes", default: 65_536, 1...TaskStream.bufferLimit)
        let minBytes = try request.integerQuery("minBytes", default: 1, 0...maxBytes)
        let timeout = try Self.seconds(request.queryValue("timeout"), field: "timeout")
        let (task, channel) = try await openChannel(request)
        let result = try await streams.holding(tenant: request.tenant) {
            await channel.read(minBytes: minBytes, maxBytes: maxBytes, timeout: Self.duration(timeout))
        }
        switch result {
        case .data(let bytes, let atEOF): return try .json(StreamReadAnswer(data: bytes, atEOF: atEOF))
        case .timedOut: return try .json(StreamReadAnswer(data: [], atEOF: false, error: TransferError(.timedOut)))
        case .notOpen: throw Self.notOpen(task.state, "its connection ended")
        }
    }

    /// `closeRead()`, `closeWrite()`, `startSecureConnection()`: queued behind what was asked before, 204.
    private func close(_ request: HTTPRequest, _ call: (TaskStream) -> Bool) async throws -> HTTPResponse {
        let (task, channel) = try await openChannel(request)
        guard call(channel) else { throw Self.notOpen(task.state, "its connection ended or its write side is closed") }
        return .noContent
    }

    /// The task's channel. A task that runs but whose connection the loop has not taken up yet is waited for
    /// (`channelWait`); one that never ran (suspended), or whose channel is gone, is a 409.
    private func openChannel(_ request: HTTPRequest) async throws -> (TaskRecord, TaskStream) {
        let id = request.parameter("id")
        var (task, channel) = try await tasks.connections.streamChannel(of: id, tenant: request.tenant)
        let deadline = ContinuousClock.now + Self.channelWait
        while channel == nil, task.state == .running, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            (task, channel) = try await tasks.connections.streamChannel(of: id, tenant: request.tenant)
        }
        guard let channel else { throw Self.notOpen(task.state, "it has no connection") }
        return (task, channel)
    }

    private static func notOpen(_ state: TaskState, _ why: String) -> Problem {
        .conflict("the stream task cannot take this call: \(why) (the task is \(state.rawValue))")
    }

    private static func mediaType(_ request: HTTPRequest) -> String? {
        request.header("content-type")?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    }

    private static func seconds(_ text: String?, field: String) throws -> Double {
        guard let text else { return defaultTimeout }
        guard let seconds = Double(text), seconds.isFinite, (0...maximumTimeout).contains(seconds) else {
            throw Problem.invalidValue(field, "must be a number of seconds from 0 to \(Int(maximumTimeout))")
        }
        return seconds
    }

    private static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64(seconds * 1000)) }
}
