import Foundation

/// The parameters of an event list: `?after=` (a sequence), `?limit=`, `?wait=`, `Last-Event-ID`, and
/// whether the client asked for `text/event-stream`.
struct EventQuery {
    /// Events with a greater `sequence` are answered (0: from the first).
    var after: Int64 = 0
    var limit = 100
    /// `?wait=SECONDS`: long-poll until an event exists after `after`.
    var wait: Duration?
    /// The `Last-Event-ID` of a reconnecting `EventSource`.
    var lastEventID: Int64?
    var wantsEventStream = false

    /// Reads and checks every parameter, so a wrong one is refused (422 naming it) whichever form is asked
    /// for. Parameters of the stream only (`wait`, `Last-Event-ID`, `Accept`) are read when `streams`.
    init(_ request: HTTPRequest, streams: Bool) throws {
        if let text = request.queryValue("after") {
            guard let value = Self.sequence(text) else {
                throw Problem.invalidValue("after", "must be an event sequence: an integer from 0")
            }
            after = value
        }
        if let text = request.queryValue("limit") {
            guard let value = Self.sequence(text), (1...1000).contains(value) else {
                throw Problem.invalidValue("limit", "must be an integer from 1 to 1000")
            }
            limit = Int(value)
        }
        guard streams else { return }
        wait = try TaskRoutes.waitDuration(request)
        if let text = request.header("last-event-id") {
            guard let value = Self.sequence(text) else {
                throw Problem.invalidValue("Last-Event-ID", "must be the id of an event received: an integer from 0")
            }
            lastEventID = value
        }
        wantsEventStream = Self.prefersEventStream(accept: request.header("accept"))
    }

    /// Where a stream starts: after `Last-Event-ID` when reconnecting, else after `after`.
    var streamStart: Int64 { lastEventID ?? after }

    /// A non-negative decimal integer, digits only (no sign, no spaces), that fits 64 bits.
    static func sequence(_ text: String) -> Int64? {
        guard (1...19).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }

    /// Whether `Accept` names `text/event-stream` (q > 0) at least as highly as `application/json`.
    /// Wildcards do not count: `*/*` (curl's default, most tools') gets the JSON page.
    static func prefersEventStream(accept: String?) -> Bool {
        guard let accept else { return false }
        var eventStream: Double?
        var json: Double?
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let mediaType = parts.first else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if mediaType == "text/event-stream" { eventStream = max(eventStream ?? 0, quality) }
            if mediaType == "application/json" { json = max(json ?? 0, quality) }
        }
        guard let eventStream, eventStream > 0 else { return false }
        return eventStream >= (json ?? 0)
    }
}
