internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

/// One `GET /v1/sessions/{id}/events` with `Accept: text/event-stream`, read as the bytes arrive.
///
/// URLSession hands the body to a data delegate piece by piece (on Linux and on Apple platforms alike,
/// where `bytes(for:)` is missing from FoundationNetworking); the pieces go through the parser and the
/// events into an `AsyncThrowingStream`. The stream finishes without an error when the service ends the
/// body (a shutdown: reconnect), and throws ``EventStreamConnection/Ended`` for a 204 (the session is
/// invalidated and everything was sent) or ``RemoteServiceError`` for a refusal.
///
/// `@unchecked Sendable`: URLSession calls the delegate methods on its own queue; the mutable state is in
/// `Locked` boxes and the continuation is thread-safe.
final class EventStreamConnection: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// The service answered 204: the session is invalidated and no event is left to send.
    struct Ended: Error {}

    private let continuation: AsyncThrowingStream<WireEvent, any Error>.Continuation
    private let parser = Locked(ServerSentEventParser())
    /// The answer's status, and its body while it is not 200 (a problem, read for the error).
    private let answer = Locked<(status: Int, problem: Data)>((0, Data()))

    private init(continuation: AsyncThrowingStream<WireEvent, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Opens the stream from the event after `after` (sent as `Last-Event-ID`, as an `EventSource` reconnects).
    static func open(_ client: ServiceClient, sessionID: String, after: Int) -> AsyncThrowingStream<WireEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<WireEvent, any Error>.makeStream()
        let connection = EventStreamConnection(continuation: continuation)
        let configuration = URLSessionConfiguration.ephemeral
        // The service sends `: keep-alive` every 15 s, so an idle minute means the connection is dead.
        configuration.timeoutIntervalForRequest = 60
        configuration.timeoutIntervalForResource = 365 * 24 * 3600
        let transport = URLSession(configuration: configuration, delegate: connection, delegateQueue: nil)
        var request = client.request("GET", "/v1/sessions/\(sessionID)/events", timeout: 60)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if after > 0 { request.setValue(String(after), forHTTPHeaderField: "Last-Event-ID") }
        let task = transport.dataTask(with: request)
        continuation.onTermination = { _ in
            // URLSession keeps its delegate until invalidated: this also breaks that cycle.
            task.cancel()
            transport.invalidateAndCancel()
        }
        task.resume()
        return stream
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        self.answer.withLock { $0.status = status }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let status = self.answer.withLock { answer in
            if answer.status != 200 { answer.problem.append(data) }
            return answer.status
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

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (status, problem) = self.answer.withLock { ($0.status, $0.problem) }
        if let error {
            self.continuation.finish(throwing: error)
        } else if status == 204 {
            self.continuation.finish(throwing: Ended())
        } else if status != 200 {
            let url = task.originalRequest?.url ?? URL(fileURLWithPath: "/")
            do {
                let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: nil)
                try ServiceClient.check(
                    response ?? URLResponse(url: url, mimeType: nil, expectedContentLength: -1, textEncodingName: nil), body: problem)
                self.continuation.finish()
            } catch {
                self.continuation.finish(throwing: error)
            }
        } else {
            self.continuation.finish()
        }
    }
}
