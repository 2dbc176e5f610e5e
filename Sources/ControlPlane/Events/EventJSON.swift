import JSONCodec
import TransferModels

/// The wire form of events: the Event object, a page of them, and server-sent event frames, each
/// written by `WireJSON` from `EventObject` with the stored `data` embedded as it is (checked by
/// `data(of:)`, so no line break can cut an SSE frame).
enum EventJSON {
    static func object(_ event: EventRecord) throws -> [UInt8] {
        try wire(event).encodedJSON()
    }

    /// `{"items": [...], "nextCursor": "<last sequence>" | null}`: a cursor only when more are stored; a
    /// session's page adds `lastSequence`, where a client that wants only what comes next starts.
    static func page(_ page: EventPage) throws -> [UInt8] {
        let next = page.hasMore ? page.events.last.map { String($0.sequence) } : nil
        return try WireJSON.encode(EventList(items: try page.events.map(wire), nextCursor: next, lastSequence: page.lastSequence))
    }

    private struct EventList: Encodable {
        var items: [EventObject]
        var nextCursor: String?
        var lastSequence: Int64?

        enum CodingKeys: String, CodingKey { case items, nextCursor, lastSequence }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encode(nextCursor, forKey: .nextCursor)  // null when this page reaches the newest
            try container.encodeIfPresent(lastSequence, forKey: .lastSequence)
        }
    }

    /// One frame per event: `id: <sequence>`, `event: <type>`, `data: <the Event JSON>`, then a blank line.
    static func serverSentEvents(_ events: [EventRecord]) throws -> [UInt8] {
        var output: [UInt8] = []
        for event in events {
            output += "id: \(event.sequence)\nevent: \(event.type.rawValue)\ndata: ".utf8
            output += try object(event)  // one line: the JSON has no raw line breaks (see `data(of:)`)
            output += "\n\n".utf8
        }
        return output
    }

    /// A comment frame: ignored by `EventSource`, it keeps proxies from closing an idle stream.
    static let keepAlive = Array(": keep-alive\n\n".utf8)

    private static func wire(_ event: EventRecord) throws -> EventObject {
        var object = event.object
        object.data = EncodedJSON(String(decoding: try data(of: event), as: UTF8.self))
        return object
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
