internal import Foundation

/// Splits a `text/event-stream` body into events (the WHATWG HTML "event stream interpretation"), fed the
/// bytes as they arrive in whatever pieces the transport gives.
///
/// Only what the service sends is kept: `id`, `event` and `data` (several `data` lines are joined with
/// newlines); comments (`: keep-alive`) and `retry` are skipped.
struct ServerSentEventParser: Sendable {
    struct Event: Sendable, Hashable {
        var id: String?
        var event: String?
        var data: String
    }

    private var buffer: [UInt8] = []
    private var id: String?
    private var event: String?
    private var data: [String] = []

    init() {}

    /// Adds `bytes` and answers the events they completed, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        self.buffer.append(contentsOf: bytes)
        var events: [Event] = []
        var start = 0
        var index = 0
        while index < self.buffer.count {
            let byte = self.buffer[index]
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                index += 1
                continue
            }
            // A CR LF pair is one line end; a CR at the very end waits for the next piece to tell.
            if byte == UInt8(ascii: "\r") {
                if index + 1 == self.buffer.count { break }
                if self.buffer[index + 1] == UInt8(ascii: "\n") {
                    if let event = self.line(self.buffer[start..<index]) { events.append(event) }
                    index += 2
                    start = index
                    continue
                }
            }
            if let event = self.line(self.buffer[start..<index]) { events.append(event) }
            index += 1
            start = index
        }
        self.buffer.removeFirst(start)
        return events
    }

    private mutating func line(_ bytes: ArraySlice<UInt8>) -> Event? {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.isEmpty {
            defer { (self.event, self.data) = (nil, []) }
            guard !self.data.isEmpty else { return nil }
            return Event(id: self.id, event: self.event, data: self.data.joined(separator: "\n"))
        }
        if text.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            (field, value) = (Substring(text), "")
        }
        switch field {
        case "id": self.id = String(value)
        case "event": self.event = String(value)
        case "data": self.data.append(String(value))
        default: break
        }
        return nil
    }
}
