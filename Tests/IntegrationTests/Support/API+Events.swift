import Foundation
import TestSupport
import Testing

/// One page of `GET /v1/sessions/{id}/events` or `GET /v1/tasks/{id}/events`.
struct EventsPage {
    var items: [[String: Any]]
    var nextCursor: String?
}

/// Accessors for the event object of the API.
extension Dictionary where Key == String, Value == Any {
    var eventType: String? { self["type"] as? String }
    var sequence: Int? { int(self["sequence"]) }
    var eventTaskID: String? { self["taskId"] as? String }
    var eventData: [String: Any]? { self["data"] as? [String: Any] }
}

extension API {
    /// `GET <path>?<query>` of an event list, which must answer 200 with a page.
    func eventsPage(
        _ path: String, query: String = "", timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> EventsPage {
        var request = TestHTTPRequest.get(base + path + (query.isEmpty ? "" : "?\(query)"), token: token)
        request.timeout = timeout
        let response = try await client.send(request)
        try #require(response.status == 200, "\(response.status): \(response.text)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/json", sourceLocation: sourceLocation)
        let page = try response.json()
        let items = try #require(page["items"] as? [[String: Any]], sourceLocation: sourceLocation)
        try #require(page.keys.contains("nextCursor"), "\(page)", sourceLocation: sourceLocation)
        return EventsPage(items: items, nextCursor: page["nextCursor"] as? String)
    }

    /// Every event of an event list after `after`, following `nextCursor` (bounded to 100 pages).
    func allEvents(
        _ path: String, after: Int = 0, limit: Int = 1000, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var cursor = "\(after)"
        for _ in 0..<100 {
            let page = try await eventsPage(path, query: "after=\(cursor)&limit=\(limit)", sourceLocation: sourceLocation)
            items += page.items
            guard let next = page.nextCursor else { return items }
            cursor = next
        }
        Issue.record("more than 100 pages of events", sourceLocation: sourceLocation)
        return items
    }

    /// `GET /v1/sessions/{id}/events` as a server-sent event stream.
    func eventStreamRequest(
        session: String, query: String = "", lastEventID: String? = nil, timeout: Double = 60
    ) -> TestHTTPRequest {
        var headers = [("Accept", "text/event-stream")]
        if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
        var request = TestHTTPRequest.get(
            base + "/v1/sessions/\(session)/events" + (query.isEmpty ? "" : "?\(query)"), token: token, headers: headers)
        request.timeout = timeout
        return request
    }
}

/// Checks the shape API.md gives every event, and that task events carry their task's summary.
func expectEventShape(_ event: [String: Any], session: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect((event["id"] as? String)?.hasPrefix("evt_") == true, "\(event)", sourceLocation: sourceLocation)
    #expect(event.eventType != nil, sourceLocation: sourceLocation)
    #expect((event.sequence ?? 0) >= 1, sourceLocation: sourceLocation)
    #expect((event["timestamp"] as? String)?.hasSuffix("Z") == true, sourceLocation: sourceLocation)
    #expect(event["sessionId"] as? String == session, sourceLocation: sourceLocation)
    #expect(event.keys.contains("taskId"), sourceLocation: sourceLocation)
    let data = event.eventData
    #expect(data != nil, "data is not an object: \(event)", sourceLocation: sourceLocation)
    if let task = event.eventTaskID {
        #expect((data?["task"] as? [String: Any])?["id"] as? String == task, "\(event)", sourceLocation: sourceLocation)
    } else {
        #expect(event["taskId"] is NSNull, sourceLocation: sourceLocation)
    }
}

/// The text of a JSON value parsed from `text`, canonical (sorted keys), for comparing two renderings.
func canonicalJSON(_ text: String) throws -> String {
    try canonical(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
}
