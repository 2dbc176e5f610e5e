internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

/// One `GET /v1/sessions/{id}/events` with `Accept: text/event-stream`, read as the bytes arrive.
///
/// The body's pieces go through the parser and the events into an `AsyncThrowingStream`. The stream
/// finishes without an error when the service ends the body (a shutdown: reconnect), and throws
/// ``EventStreamConnection/Ended`` for a 204 (the session is invalidated and everything was sent) or
/// ``RemoteServiceError`` for a refusal.
///
/// `@unchecked Sendable`: the transport calls the handlers on its thread; the mutable state is in
/// `Locked` boxes and the continuation is thread-safe.
final class EventStreamConnection: @unchecked Sendable {
    /// The service answered 204: the session is invalidated and no event is left to send.
    struct Ended: Error {}

    private let continuation: AsyncThrowingStream<WireEvent, any Error>.Continuation
    private let parser = Locked(ServerSentEventParser())
    /// The answer, and its body while it is not 200 (a problem, read for the error).
    private let answer = Locked<(response: HTTPURLResponse?, problem: Data)>((nil, Data()))

    private init(continuation: AsyncThrowingStream<WireEvent, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Opens the stream from the event after `after` (sent as `Last-Event-ID`, as an `EventSource` reconnects).
    static func open(_ client: ServiceClient, sessionID: String, after: Int) -> AsyncThrowingStream<WireEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<WireEvent, any Error>.makeStream()
        let connection = EventStreamConnection(continuation: continuation)
        // The service sends `: keep-alive` every 15 s, so an idle minute means the connection is dead.
        var request = client.request("GET", "/v1/sessions/\(sessionID)/events", timeout: 60)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if after > 0 { request.setValue(String(after), forHTTPHeaderField: "Last-Event-ID") }
        let call = HTTPCall(
            request,
            handlers: HTTPCallHandlers(
                response: { response in connection.answer.withLock { $0.response = response } },
                data: { piece in
                    connection.received(Data(piece))
                    return nil
                },
                completion: { error in connection.ended(with: error) }))
        continuation.onTermination = { _ in HTTPTransport.streams.cancel(call) }
        HTTPTransport.streams.start(call)
        return stream
    }

    private func received(_ data: Data) {
        let status = self.answer.withLock { answer in
            let status = answer.response?.statusCode ?? 0
            if status != 200 { answer.problem.append(data) }
            return status
        }
        guard status == 200 else { return }
        let events = self.parser.withLock { $0.feed(data) }
        for event in events where !event.data.isEmpty {
            do {
                self.continuation.yield(try JSONDecoder().decode(WireEvent.self, from: Data(event.data.utf8)))
            } catch {
                self.continuation.finish(throwing: error)
                return
            }
        }
    }

    private func ended(with error: URLError?) {
        let (response, problem) = self.answer.withLock { ($0.response, $0.problem) }
        if let error {
            self.continuation.finish(throwing: error)
        } else if response?.statusCode == 204 {
            self.continuation.finish(throwing: Ended())
        } else if let response, response.statusCode != 200 {
            do {
                try ServiceClient.check(response, body: problem)
                self.continuation.finish()
            } catch {
                self.continuation.finish(throwing: error)
            }
        } else {
            self.continuation.finish()
        }
    }
}
