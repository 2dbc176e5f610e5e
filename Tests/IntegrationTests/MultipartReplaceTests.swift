import Foundation
import TestSupport
import Testing

/// `multipart/x-mixed-replace` as URLSession delivers it: one `dataTask.didReceiveResponse` per part (the
/// part's header fields, the status and URL of the response), each part's bytes after its response, and
/// a delegate's decision about every part.
@Suite("multipart/x-mixed-replace")
struct MultipartReplaceTests {
    static let size = 300

    /// The task's events from its first response on, as (type, X-Part of a response, length of data).
    static func stream(_ events: [[String: Any]]) -> [(type: String, part: String?, length: Int?)] {
        events.compactMap { event in
            guard let type = event.eventType, type.hasPrefix("dataTask.") else { return nil }
            let data = event.eventData
            let headers = (data?["response"] as? [String: Any])?["allHeaderFields"] as? [String: Any]
            return (type, headers?["X-Part"] as? String, int(data?["length"]))
        }
    }

    /// Part 1, its bytes, part 2, its bytes, … whether the parts came in one write or seconds apart.
    @Test(.timeLimit(.minutes(1)), arguments: [0, 0.3])
    func eachPartIsAResponseFollowedByItsBytes(interval: Double) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = origin.url("/multipart-replace?parts=3&size=\(Self.size)&interval=\(interval)")
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.statusCode == 200)
            let response = try #require(task["response"] as? [String: Any])
            #expect(response["url"] as? String == url)
            #expect((response["allHeaderFields"] as? [String: Any])?["X-Part"] as? String == "3", "the last part's head")
            #expect(response["mimeType"] as? String == "text/plain")
            let body = try await api.taskData(task.taskID)
            #expect(body.body == FixtureOrigin.multipartContent(part: 3, size: Self.size), "the last part replaced the others")

            let events = try await api.allEvents("/v1/tasks/\(task.taskID)/events")
            let stream = Self.stream(events)
            var current: String?
            var received: [String: Int] = [:]
            for (type, part, length) in stream {
                if type == "dataTask.didReceiveResponse" {
                    let next = try #require(part, "a response without X-Part")
                    #expect(current.map { received[$0] == Self.size } ?? true, "part \(current ?? "") ended early: \(received)")
                    current = next
                } else if type == "dataTask.didReceiveData" {
                    let part = try #require(current, "data before the first response")
                    received[part, default: 0] += length ?? 0
                }
            }
            let responses = stream.filter { $0.type == "dataTask.didReceiveResponse" }
            #expect(responses.map(\.part) == ["1", "2", "3"], "\(stream)")
            #expect(received == ["1": Self.size, "2": Self.size, "3": Self.size], "\(stream)")
            let first = try #require(events.first { $0.eventType == "dataTask.didReceiveResponse" }?.eventData)
            let firstResponse = try #require(first["response"] as? [String: Any])
            #expect(int(firstResponse["statusCode"]) == 200 && firstResponse["url"] as? String == url)
        }
    }

    /// A delegate that decides about responses is asked about every part, and its answer holds for that
    /// part: parts 1 and 2 allowed, part 3 cancelled.
    @Test(.timeLimit(.minutes(1)), arguments: [0, 0.2])
    func theDelegateDecidesAboutEveryPart(interval: Double) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        try await withTaskService { api, _ in
            let session = try await TaskDecisionsTests.session(api, receiver: receiver, decision: TaskDecisionsTests.response) {
                event in
                let response = (event["data"] as? [String: Any])?["response"] as? [String: Any]
                let part = (response?["allHeaderFields"] as? [String: Any])?["X-Part"] as? String
                return .json(part == "3" ? #"{"disposition": "cancel"}"# : #"{"disposition": "allow"}"#)
            }
            let url = origin.url("/multipart-replace?parts=4&size=\(Self.size)&interval=\(interval)")
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(task.errorCode == -999, "\(task)")
            let asked = receiver.requests.compactMap { try? $0.json() }.filter {
                $0["type"] as? String == TaskDecisionsTests.response
            }
            let parts = asked.compactMap {
                (($0["data"] as? [String: Any])?["response"] as? [String: Any])?["allHeaderFields"] as? [String: Any]
            }.compactMap { $0["X-Part"] as? String }
            #expect(parts == ["1", "2", "3"], "asked about each part until the cancel")
            let stream = Self.stream(try await api.allEvents("/v1/tasks/\(task.taskID)/events"))
            let received = stream.filter { $0.type == "dataTask.didReceiveData" }.compactMap(\.length).reduce(0, +)
            #expect(received == 2 * Self.size, "the bytes of the two parts allowed: \(stream)")
        }
    }
}
