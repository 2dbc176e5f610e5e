internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

/// One `GET /v1/tasks/{id}/data` of a running task, read as the body arrives: the answer's head when it
/// comes, then the pieces of the body in an `AsyncThrowingStream`.
///
/// `@unchecked Sendable`: the transport calls the handlers on its thread; the mutable state is in a
/// `Locked` box and the continuations are resumed once, outside it.
final class BodyStreamConnection: @unchecked Sendable {
    let chunks: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private let state = Locked(State())

    private struct State {
        var head: CheckedContinuation<HTTPURLResponse, any Error>?
        var response: HTTPURLResponse?
        var failure: (any Error)?
        /// A refusal's body, read for its problem.
        var problem = Data()
    }

    private init() {
        (self.chunks, self.continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
    }

    /// Starts the request; the answer's head comes from ``head()``, the body from ``chunks``.
    static func open(_ request: URLRequest) -> BodyStreamConnection {
        let connection = BodyStreamConnection()
        let call = HTTPCall(
            request,
            handlers: HTTPCallHandlers(
                response: { response in connection.received(response) },
                data: { piece in
                    connection.received(Data(piece))
                    return nil
                },
                completion: { error in connection.ended(with: error) }))
        connection.continuation.onTermination = { _ in HTTPTransport.streams.cancel(call) }
        HTTPTransport.streams.start(call)
        return connection
    }

    /// Ends the body with `error` (the task failed), whether or not the service has cut it yet.
    func fail(_ error: any Error) {
        self.continuation.finish(throwing: error)
    }

    /// The answer's head (200 with the origin's Content-Type), or the service's refusal thrown.
    func head() async throws -> HTTPURLResponse {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<HTTPURLResponse, any Error>? = self.state.withLock { state in
                if let response = state.response { return .success(response) }
                if let failure = state.failure { return .failure(failure) }
                state.head = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    private func received(_ http: HTTPURLResponse) {
        // A refusal's head is given once its problem body is read (at completion).
        let waiter: CheckedContinuation<HTTPURLResponse, any Error>? = self.state.withLock { state in
            state.response = http
            guard (200..<300).contains(http.statusCode) else { return nil }
            defer { state.head = nil }
            return state.head
        }
        waiter?.resume(returning: http)
    }

    private func received(_ data: Data) {
        let accepted = self.state.withLock { state in
            guard let status = state.response?.statusCode, (200..<300).contains(status) else {
                state.problem.append(data)
                return false
            }
            return true
        }
        if accepted { self.continuation.yield(data) }
    }

    private func ended(with error: URLError?) {
        let (waiter, failure): (CheckedContinuation<HTTPURLResponse, any Error>?, (any Error)?) = self.state.withLock {
            state in
            var failure: (any Error)? = error
            if failure == nil, let response = state.response, !(200..<300).contains(response.statusCode) {
                do {
                    try ServiceClient.check(response, body: state.problem)
                } catch {
                    failure = error
                }
            }
            if state.response == nil && failure == nil { failure = URLError(.badServerResponse) }
            state.failure = failure
            defer { state.head = nil }
            return (state.head, failure)
        }
        if let failure {
            waiter?.resume(throwing: failure)
            self.continuation.finish(throwing: failure)
        } else {
            self.continuation.finish()
        }
    }
}
