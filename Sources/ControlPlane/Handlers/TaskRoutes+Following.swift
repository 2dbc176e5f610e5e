import Foundation
import SessionTasks
import TransferModels

// `GET /v1/tasks/{id}/data` of a running task: the body as it arrives, chunked, from the start or from
// `Range: bytes=N-`, ended when the task completes.
//
// Each reader reads the engine's own storage of the body (`ReceivingBody`: memory, then the spill file) at
// its own pace and holds at most a chunk plus what `ResponseStream` buffers for a slow client, whatever
// the body's size. The transfer never waits for a reader: a reader that falls behind reads from the
// file later. The stream ends cleanly only once the task's completion is recorded without an error; when
// the task fails (or its attempt stops) the connection is closed without the last chunk, so the client
// sees an incomplete body, and the task shows the error.
extension TaskRoutes {
    /// Bytes read from the body for one write to the client.
    static let followChunkSize = 64 * 1024
    /// How often a follower looks whether its parked client hung up, and whether the task moved on.
    static let followTick: Duration = .seconds(1)
    /// How long a follower whose body was dropped waits for the task's error to be recorded before it cuts
    /// the stream (an attempt stopped by `suspend` records none).
    static let discardedGrace: Duration = .seconds(2)

    /// Waits for the running task's final response (its Content-Type heads the answer), then answers with
    /// a stream that follows its body. A task that completes or is suspended meanwhile is answered as such.
    func followedData(_ request: HTTPRequest, task: TaskRecord) async throws -> HTTPResponse {
        let slot = try streams.acquire(tenant: request.tenant)  // given back when the stream ends, or never starts
        var body = tasks.connections.receivingBody(of: task.id)
        while body == nil {  // bounded by the task: it gets its response, completes, or is suspended
            let current = try await tasks.requireTask(task.id, tenant: request.tenant)
            switch current.state {
            case .completed:
                slot.release()
                return try await completedData(request, task: current)
            case .suspended:
                slot.release()
                throw Problem.conflict("the body is there while the task runs, and once it completes")
            case .running, .canceling:
                if shutdown.isTriggered { throw Problem.shuttingDown }
                try await tasks.connections.waitForBody(of: task.id, tenant: request.tenant, timeout: Self.followTick)
                body = tasks.connections.receivingBody(of: task.id)
            }
        }
        guard let body else { throw Problem.internalError }

        var headers: [(name: String, value: String)] = [
            ("Content-Type", body.contentType ?? "application/octet-stream"), Self.noSniff,
            ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no"),  // proxies must not hold the stream back
        ]
        var status = 200
        var first: Int64 = 0
        var last: Int64?
        if let field = request.header("range"), let range = RangeRequest.start(of: field) {
            let expected = body.expectedLength
            if expected >= 0 && range.first >= UInt64(expected) {
                slot.release()
                throw Self.rangeNotSatisfiable(size: UInt64(expected), headers: headers)
            }
            status = 206
            first = Int64(clamping: range.first)
            last = range.last.map { Int64(clamping: $0) }
            if expected >= 0 {
                last = min(last ?? .max, expected - 1)
                headers.append(("Content-Range", "bytes \(first)-\(last!)/\(expected)"))
            } else if let last {
                headers.append(("Content-Range", "bytes \(first)-\(last)/*"))
            }  // else no form of Content-Range says "from N to an end not known yet" (WIRE-DECISIONS)
        }
        let (taskId, tenant, start, end) = (task.id, request.tenant, first, last)
        let stream = ResponseStream { stream in
            defer { slot.release() }
            await follow(body, of: taskId, tenant: tenant, from: start, through: end, into: stream)
        }
        return HTTPResponse(status: status, headers: headers, body: .stream(stream))
    }

    /// Writes the body's bytes from `first` (through `last`) into `stream` as they arrive, then ends the
    /// stream as the task ends: cleanly when it completed without an error, cut otherwise.
    func follow(
        _ body: ReceivingBody, of taskId: String, tenant: String, from first: Int64, through last: Int64?,
        into stream: ResponseStream
    ) async {
        let doorbell = Doorbell()
        body.subscribe(doorbell)
        shutdown.register(doorbell)
        stream.onClose { doorbell.ring(.closed) }
        defer {
            body.unsubscribe(doorbell)
            shutdown.unregister(doorbell)
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {  // ends with the follower (cancelled below)
                    try? await Task.sleep(for: Self.followTick)
                    doorbell.ring(.tick)
                }
            }
            defer { group.cancelAll() }
            do {
                let end = try await copy(body, from: first, through: last, into: stream, doorbell: doorbell)
                switch end {
                case .rangeSent: stream.finish()
                case .left: stream.abort()
                case .body(.received): await endWithTask(taskId, tenant: tenant, stream: stream, within: nil)
                case .body(.discarded): await endWithTask(taskId, tenant: tenant, stream: stream, within: Self.discardedGrace)
                }
            } catch {
                stream.abort()  // the spill file could not be read: the client sees an incomplete body
            }
        }
    }

    private enum CopyEnd {
        /// The last byte of the range asked for was written.
        case rangeSent
        /// The client left, or the service is shutting down.
        case left
        /// The transfer ended the body and every byte of it from `first` was written.
        case body(ReceivedBodyEnd)
    }

    /// Copies bytes until the range is sent, the body has ended and is all written, or the stream closes.
    private func copy(
        _ body: ReceivingBody, from first: Int64, through last: Int64?, into stream: ResponseStream, doorbell: Doorbell
    ) async throws -> CopyEnd {
        var position = first
        while true {  // bounded by the body: each turn writes bytes, or ends, or waits for the doorbell
            let wanted = last.map { Int(min(Int64(Self.followChunkSize), $0 - position + 1)) } ?? Self.followChunkSize
            let (bytes, status) = try body.read(from: position, upTo: wanted)
            if !bytes.isEmpty {
                guard await stream.write(bytes) else { return .left }
                position += Int64(bytes.count)
                if let last, position > last { return .rangeSent }
                continue
            }
            if let end = status.end, position >= status.length { return .body(end) }
            let reasons = await doorbell.wait()
            if !reasons.isDisjoint(with: [.closed, .shutdown]) || stream.isClosed { return .left }
            stream.checkPeer()
        }
    }

    /// Every byte is written: the stream ends as the task does, once its completion is recorded —
    /// cleanly without an error, cut with one. `within`: how long to wait for that (nil: as long as it
    /// takes); a task that is not complete by then (an attempt stopped by `suspend`) cuts the stream.
    private func endWithTask(_ taskId: String, tenant: String, stream: ResponseStream, within: Duration?) async {
        let deadline = within.map { ContinuousClock.now + $0 }
        while !stream.isClosed && !shutdown.isTriggered {  // bounded by the task's completion, the client, shutdown
            if let deadline, ContinuousClock.now >= deadline { break }
            stream.checkPeer()
            let wait = deadline.map { min(Self.followTick, ContinuousClock.now.duration(to: $0)) } ?? Self.followTick
            guard let task = try? await tasks.waitForCompletion(of: taskId, tenant: tenant, timeout: max(.zero, wait)) else {
                break
            }
            if task.state == .completed {
                if task.error == nil { stream.finish() } else { stream.abort() }
                return
            }
        }
        stream.abort()
    }
}
