internal import Foundation

/// One event of a `text/event-stream` body, as an `EventSource` dispatches it.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `id:` field, if the frame had one.
    public var id: String?
    /// The `event:` field (nil: the default type, `message`).
    public var event: String?
    /// The `data:` lines joined with `\n`.
    public var data: String
}

/// Parses a `text/event-stream` body incrementally (WHATWG HTML, "Parsing an event stream"): lines end
/// with LF, CR or CRLF; a blank line dispatches the frame; lines starting with `:` are comments.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var id: String?
    private var event: String?
    private var data: [String] = []
    /// Comment lines seen so far, without the leading colon.
    public private(set) var comments: [String] = []

    public init() {}

    /// Feeds the next bytes; returns the events they completed.
    public mutating func feed(_ bytes: [UInt8]) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if byte == 0x0A && lastWasCR {  // the LF of a CRLF
                lastWasCR = false
                continue
            }
            lastWasCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                if let event = endLine() { events.append(event) }
            } else {
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            defer { (id, event, data) = (nil, nil, []) }
            guard !data.isEmpty else { return nil }
            return ServerSentEvent(id: id, event: event, data: data.joined(separator: "\n"))
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") {
            comments.append(String(text.dropFirst()).trimmingCharacters(in: .whitespaces))
            return nil
        }
        let name: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            name = Substring(text)
            value = ""
        }
        switch name {
        case "id": id = String(value)
        case "event": event = String(value)
        case "data": data.append(String(value))
        default: break  // `retry` and unknown fields
        }
        return nil
    }
}

/// Reads a server-sent event stream with ``HTTPClient/stream(_:onChunk:)`` and keeps what arrived, so a
/// test can wait for events while the stream stays open.
///
/// ```swift
/// let recorder = EventStreamRecorder()
/// async let ended = recorder.run(client, .get(url, token: token, headers: [("Accept", "text/event-stream")]))
/// let first = try await recorder.waitForEvents(count: 3, timeout: 10)
/// ```
public final class EventStreamRecorder: Sendable {
    private struct State {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var isFinished = false
        var stopRequested = false
    }
    private let state = Locked(State())

    public init() {}

    /// The events dispatched so far.
    public var events: [ServerSentEvent] { state.withLock { $0.events } }
    /// The comment lines received so far (heartbeats).
    public var comments: [String] { state.withLock { $0.parser.comments } }
    /// Whether the transfer has ended (the server closed the stream, or ``stop()`` took effect).
    public var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Sends `request` and records its events until the server ends the body, ``stop()`` is called
    /// (effective at the next chunk), the task is cancelled, or `request.timeout` elapses.
    /// - Returns: The response: status, headers and every body byte received.
    public func run(_ client: HTTPClient, _ request: TestHTTPRequest) async throws -> TestHTTPResponse {
        defer { state.withLock { $0.isFinished = true } }
        return try await client.stream(request) { [state] chunk in
            state.withLock { state in
                state.events += state.parser.feed(chunk)
                return !state.stopRequested
            }
        }
    }

    /// Asks ``run(_:_:)`` to end the transfer when the next chunk arrives.
    public func stop() { state.withLock { $0.stopRequested = true } }

    /// Waits until at least `count` events arrived; throws ``TimeoutError`` after `timeout` seconds.
    @discardableResult
    public func waitForEvents(count: Int, timeout: Double) async throws -> [ServerSentEvent] {
        try await eventually(timeout: timeout, interval: 0.02) { self.events.count >= count || self.isFinished }
        let events = self.events
        guard events.count >= count else {
            throw TimeoutError(seconds: timeout, operation: "\(count) server-sent events (the stream ended after \(events.count))")
        }
        return events
    }
}
