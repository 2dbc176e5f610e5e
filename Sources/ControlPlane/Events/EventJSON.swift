import TransferModels
import TransferStore

/// The wire form of events: the Event object, a page of them, and server-sent event frames.
///
/// Written by hand so the stored `data` (JSON text the store wrote from an encoded value) is embedded
/// as it is, not decoded and encoded again. Keys are sorted, as `WireJSON` writes every other object.
enum EventJSON {
    /// `{"data":…,"id":…,"sequence":…,"sessionId":…,"taskId":…,"timestamp":…,"type":…}`.
    static func object(_ event: EventRecord) throws -> [UInt8] {
        var output: [UInt8] = []
        try append(event, to: &output)
        return output
    }

    /// `{"items": [...], "nextCursor": "<last sequence>" | null}`: a cursor only when more are stored.
    static func page(_ page: EventPage) throws -> [UInt8] {
        var output = Array(#"{"items":["#.utf8)
        output.reserveCapacity(page.events.count * 512)
        for (index, event) in page.events.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            try append(event, to: &output)
        }
        output += #"],"nextCursor":"#.utf8
        if page.hasMore, let last = page.events.last {
            output += "\"\(last.sequence)\"}".utf8
        } else {
            output += "null}".utf8
        }
        return output
    }

    /// One frame per event: `id: <sequence>`, `event: <type>`, `data: <the Event JSON>`, then a blank line.
    static func serverSentEvents(_ events: [EventRecord]) throws -> [UInt8] {
        var output: [UInt8] = []
        for event in events {
            output += "id: \(event.sequence)\nevent: \(event.type.rawValue)\ndata: ".utf8
            try append(event, to: &output)  // one line: the JSON has no raw line breaks (see `data(of:)`)
            output += "\n\n".utf8
        }
        return output
    }

    /// A comment frame: ignored by `EventSource`, it keeps proxies from closing an idle stream.
    static let keepAlive = Array(": keep-alive\n\n".utf8)

    private static func append(_ event: EventRecord, to output: inout [UInt8]) throws {
        output += #"{"data":"#.utf8
        output += try data(of: event)
        output += #","id":"#.utf8
        output += JSONValue.string(event.id).serialized()
        output += #","sequence":\#(event.sequence),"sessionId":"#.utf8
        output += JSONValue.string(event.sessionId).serialized()
        output += #","taskId":"#.utf8
        output += event.taskId.map { JSONValue.string($0).serialized() } ?? Array("null".utf8)
        output += #","timestamp":""#.utf8
        output += WireJSON.formatTimestamp(event.timestamp).utf8
        output += #"","type":"#.utf8
        output += JSONValue.string(event.type.rawValue).serialized()
        output += "}".utf8
    }

    /// The stored `data` text, embedded verbatim when it is a compact object: it starts with `{`, ends
    /// with `}` and holds no control character (compact JSON has none outside escapes, so no line break
    /// can cut an SSE frame). Anything else is parsed and written compactly; text that is not a JSON
    /// object is an error of the store, reported rather than passed on.
    static func data(of event: EventRecord) throws -> [UInt8] {
        let bytes = Array(event.data.utf8)
        if bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}"), bytes.allSatisfy({ $0 >= 0x20 }) {
            return bytes
        }
        guard let value = try? JSONParser.parse(bytes), case .object = value else {
            throw EventDataError(eventID: event.id)
        }
        return value.serialized()
    }
}

/// An event's stored `data` is not a JSON object.
struct EventDataError: Error, CustomStringConvertible {
    var eventID: String
    var description: String { "the data of event \(eventID) is not a JSON object" }
}
