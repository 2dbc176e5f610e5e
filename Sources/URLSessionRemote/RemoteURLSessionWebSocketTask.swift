public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// `URLSessionWebSocketTask`: the service holds the connection to the server; messages go through it.
///
/// Messages and close codes are Foundation's own (`URLSessionWebSocketTask.Message`, `.CloseCode`).
/// `receive()` long-polls the service's message buffer, acknowledging what it returned; call it from one
/// place at a time, as URLSession expects.
public final class RemoteURLSessionWebSocketTask: RemoteURLSessionTask, @unchecked Sendable {
    /// `closeCode`: `.invalid` until the connection ended, then the close handshake's code.
    public var closeCode: URLSessionWebSocketTask.CloseCode {
        URLSessionWebSocketTask.CloseCode(rawValue: self.values.withLock { $0.closeCode }) ?? .invalid
    }

    /// The close code as a number: FoundationNetworking's `CloseCode` has no case for the application
    /// codes 3000–4999, which arrive as `.invalid` there.
    public var closeCodeRawValue: Int {
        self.values.withLock { $0.closeCode }
    }

    /// `closeReason`, as the close frame carried it.
    public var closeReason: Data? {
        self.values.withLock { $0.closeReason }.map { Data($0.utf8) }
    }

    /// `send(_:)`: answers once the message is written to the connection (waiting for the open first).
    public func send(_ message: URLSessionWebSocketTask.Message) async throws {
        let body: [String: Any]
        switch message {
        case .string(let text): body = ["string": text]
        case .data(let data): body = ["data": data.base64EncodedString()]
        @unknown default: throw URLError(.unsupportedURL)
        }
        try await self.core.client.send(
            "POST", "/v1/tasks/\(self.identifier)/messages", json: ServiceClient.json(body), timeout: 60)
    }

    /// `receive()`: the next message. Throws the task's error (or `URLError(.networkConnectionLost)`)
    /// once the connection ended and every message was read.
    public func receive() async throws -> URLSessionWebSocketTask.Message {
        while true {  // each turn long-polls up to 30 s; ends with a message, the end, or cancellation
            try Task.checkCancellation()
            let after = self.values.withLock { $0.receivedThrough }
            let page = try await self.core.client.decode(
                WirePage<WireWebSocketMessage>.self, "GET", "/v1/tasks/\(self.identifier)/messages",
                query: [
                    URLQueryItem(name: "after", value: String(after)), URLQueryItem(name: "limit", value: "1"),
                    URLQueryItem(name: "wait", value: "30"),
                ], timeout: 90)
            if let message = page.items.first {
                self.values.withLock { $0.receivedThrough = max($0.receivedThrough, message.sequence) }
                if let text = message.string { return .string(text) }
                return .data(Data(base64Encoded: message.data ?? "") ?? Data())
            }
            if page.nextCursor == nil {
                // The connection ended: the task's completion (its close code, its error) follows.
                try await self.core.waitForCompletion(of: self)
                throw self.error ?? URLError(.networkConnectionLost)
            }
        }
    }

    /// `sendPing(pongReceiveHandler:)` as an async call: returns when the pong came; throws
    /// ``RemoteServiceError`` (504) when none came in time.
    public func sendPing() async throws {
        try await self.core.client.send("POST", "/v1/tasks/\(self.identifier)/ping", timeout: 60)
    }

    /// `cancel(with:reason:)`: the close handshake with that code; the task then completes without an error.
    public func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) async throws {
        var body: [String: Any] = ["closeCode": closeCode.rawValue]
        body["reason"] = reason.map { String(decoding: $0, as: UTF8.self) }
        let answer = try await self.core.client.decode(
            WireCancelResponse.self, "POST", "/v1/tasks/\(self.identifier)/cancel", json: ServiceClient.json(body), timeout: 30)
        self.update(from: answer.task)
    }
}

extension RemoteURLSession {
    /// `webSocketTask(with:protocols:)`: a suspended task; `resume()` opens the connection.
    public func webSocketTask(
        with url: URL, protocols: [String] = [], options: RemoteURLSessionTask.Options = .init()
    ) async throws -> RemoteURLSessionWebSocketTask {
        try await self.webSocketTask(with: URLRequest(url: url), protocols: protocols, options: options)
    }

    /// `webSocketTask(with:)` for a request (its header fields go into the handshake).
    public func webSocketTask(
        with request: URLRequest, protocols: [String] = [], options: RemoteURLSessionTask.Options = .init()
    ) async throws -> RemoteURLSessionWebSocketTask {
        var body: [String: Any] = ["kind": "webSocket", "request": request.wireObject, "resume": false]
        if !protocols.isEmpty { body["protocols"] = protocols }
        body.merge(options.wireObject) { $1 }
        let task = try await self.core.makeTask(body: ServiceClient.json(body), delegate: nil, isConvenience: false)
        guard let webSocket = task as? RemoteURLSessionWebSocketTask else { throw URLError(.badServerResponse) }
        return webSocket
    }
}
