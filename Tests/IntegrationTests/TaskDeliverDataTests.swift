import Foundation
import TestSupport
import Testing

/// `delegate.deliverData`: `dataTask.didReceiveData` carries the body's bytes (base64), in order, coalesced
/// per `progressInterval`, up to `deliverDataMaxBytes` per task; past the cap the events carry counts only.
@Suite("Tasks: deliverData")
struct TaskDeliverDataTests {
    /// A delegate nobody listens to (port 9): the events are read by polling.
    static func session(_ api: API, maxBytes: Int? = nil) async throws -> String {
        var delegate: [String: Any] = ["url": "http://127.0.0.1:9/hooks", "progressInterval": 0.5, "deliverData": true]
        if let maxBytes { delegate["deliverDataMaxBytes"] = maxBytes }
        let session = try await api.createSession(json: try jsonText(["delegate": delegate]))
        let echoed = try #require(session["delegate"] as? [String: Any])
        #expect(echoed["deliverData"] as? Bool == true)
        #expect(int(echoed["deliverDataMaxBytes"]) == maxBytes ?? 1_048_576)
        return try #require(session["id"] as? String)
    }

    /// The `didReceiveData` events of a task, in order: each one's `length` and decoded `data` (nil: null).
    static func received(_ api: API, _ taskID: String) async throws -> [(length: Int, data: [UInt8]?)] {
        try await api.allEvents("/v1/tasks/\(taskID)/events").filter { $0.eventType == "dataTask.didReceiveData" }.map {
            let data = ($0.eventData?["data"] as? String).flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }
            return (int($0.eventData?["length"]) ?? -1, data)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theBytesComeInOrderCoalescedPerProgressInterval() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api)
            let total = 300_000
            let id = try await api.createTask(
                session: session,
                ["kind": "data", "request": ["url": origin.url("/gate/e?bytes=100000&total=\(total)&seed=9")], "resume": true]
            ).taskID
            // The first bytes make the first event at once, while the origin holds the rest back.
            try await eventually(timeout: 10) { try await Self.received(api, id).isEmpty == false }
            origin.openGate("e")
            #expect(try await api.completedTask(id).errorObject == nil)
            let events = try await Self.received(api, id)
            #expect(events.count >= 2 && events.count <= 6, "coalesced: \(events.map(\.length))")
            for event in events { #expect(event.data?.count == event.length, "every event carries its own bytes") }
            #expect(events.flatMap { $0.data ?? [] }.elementsEqual(FixtureOrigin.bytes(count: total, seed: 9)))
        }
    }

    /// With a cap of 3,500 bytes, the first 3,000 (held back by the origin's gate) come with their bytes,
    /// the event that would pass the cap and every later one with counts only: what came is a prefix.
    @Test(.timeLimit(.minutes(1)))
    func pastTheCapTheEventsCarryCountsOnly() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api, maxBytes: 3500)
            let id = try await api.createTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/gate/f?bytes=3000&total=5000")], "resume": true]
            ).taskID
            try await eventually(timeout: 10) {
                try await Self.received(api, id).reduce(0) { $0 + $1.length } >= 3000
            }
            origin.openGate("f")
            #expect(try await api.completedTask(id).errorObject == nil)
            let events = try await Self.received(api, id)
            #expect(events.reduce(0) { $0 + $1.length } == 5000)
            let delivered = events.prefix { $0.data != nil }
            #expect(events.dropFirst(delivered.count).allSatisfy { $0.data == nil }, "no bytes after the first event without")
            let bytes = delivered.flatMap { $0.data ?? [] }
            #expect(bytes.count == 3000, "the first 3,000 fit the cap, the rest does not")
            #expect(bytes.elementsEqual(FixtureOrigin.bytes(count: 5000).prefix(3000)))
            #expect(events.last?.data == nil)
        }
    }

    /// A cap out of range is a 422 naming the field; a session without `deliverData` echoes the defaults.
    @Test(.timeLimit(.minutes(1)))
    func theCapIsValidatedAndTheDefaultsEchoed() async throws {
        try await withTaskService { api, _ in
            for bad in [0, 16 * 1024 * 1024 + 1] {
                let answer = try await api.post(
                    "/v1/sessions", json: #"{"delegate": {"url": "https://a.example/h", "deliverDataMaxBytes": \#(bad)}}"#)
                expectProblem(answer, status: 422, slug: "invalid-value", field: "delegate.deliverDataMaxBytes")
            }
            let wrongType = try await api.post("/v1/sessions", json: #"{"delegate": {"url": "https://a.example/h", "deliverData": 1}}"#)
            expectProblem(wrongType, status: 400, slug: "type-mismatch", field: "delegate.deliverData")
            let plain = try await api.createSession(json: #"{"delegate": {"url": "https://a.example/h"}}"#)
            let delegate = try #require(plain["delegate"] as? [String: Any])
            #expect(delegate["deliverData"] as? Bool == false)
            #expect(int(delegate["deliverDataMaxBytes"]) == 1_048_576)
        }
    }
}
