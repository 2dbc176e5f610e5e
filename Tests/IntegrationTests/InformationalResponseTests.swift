import Foundation
import TestSupport
import Testing

/// `urlSession(_:task:didReceiveInformationalResponse:)`: a `103 Early Hints` is an event of its own,
/// before the final response; `100 Continue` stays the transfer's own business.
@Suite("Informational responses")
struct InformationalResponseTests {
    @Test(.timeLimit(.minutes(1)))
    func earlyHintsAreReportedBeforeTheResponse() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/informational")]])
            #expect(task.statusCode == 200, "the task's response is the final one: \(task)")
            let events = try await api.allEvents("/v1/tasks/\(task.taskID)/events")
            let types = events.compactMap(\.eventType)
            let hint = try #require(events.first { $0.eventType == "task.didReceiveInformationalResponse" }, "\(types)")
            let response = try #require(hint.eventData?["response"] as? [String: Any])
            #expect(int(response["statusCode"]) == 103)
            let hintIndex = try #require(types.firstIndex(of: "task.didReceiveInformationalResponse"))
            let responseIndex = try #require(types.firstIndex(of: "dataTask.didReceiveResponse"))
            #expect(hintIndex < responseIndex, "\(types)")

            let upload = try await api.runTask(
                session: session,
                [
                    "kind": "upload", "request": ["url": origin.url("/upload"), "httpMethod": "POST"],
                    "uploadSource": ["data": ["base64": Data(repeating: 7, count: 200_000).base64EncodedString()]],
                ])
            #expect(upload.statusCode == 200, "\(upload)")
            let uploadEvents = try await api.allEvents("/v1/tasks/\(upload.taskID)/events").compactMap(\.eventType)
            #expect(!uploadEvents.contains("task.didReceiveInformationalResponse"), "100 Continue is not reported")
        }
    }
}
