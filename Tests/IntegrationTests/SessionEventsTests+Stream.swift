import Foundation
import TestSupport
import Testing

extension SessionEventsTests {
    /// `GET /v1/sessions/{id}/events` with `Accept: text/event-stream`: the same events as the JSON page,
    /// live, resumable, and ended by invalidation, by the client, and by shutdown.
    @Suite("Session events as server-sent events")
    struct Stream {
        /// Expects the stream's events to be exactly these JSON events, in order.
        static func expectSame(
            _ frames: [ServerSentEvent], _ events: [[String: Any]], sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            #expect(frames.count == events.count, sourceLocation: sourceLocation)
            for (frame, event) in zip(frames, events) {
                #expect(frame.id == event.sequence.map(String.init), sourceLocation: sourceLocation)
                #expect(frame.event == event.eventType, sourceLocation: sourceLocation)
                #expect(try canonicalJSON(frame.data) == canonical(event), sourceLocation: sourceLocation)
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func streamMatchesThePageFollowsNewEventsAndEndsWithInvalidation() async throws {
            let origin = try FixtureOrigin.start()
            defer { origin.stop() }
            try await withTaskService { api, _ in
                let session = try await api.makeSession()
                _ = try await SessionEventsTests.runDataTasks(api, session: session, origin: origin, count: 2)
                let stored = try await api.allEvents("/v1/sessions/\(session)/events")
                let recorder = EventStreamRecorder()
                try await withThrowingTaskGroup(of: TestHTTPResponse.self) { group in
                    group.addTask { try await recorder.run(api.client, api.eventStreamRequest(session: session)) }
                    // First what was stored, exactly as the JSON page has it.
                    try Self.expectSame(try await recorder.waitForEvents(count: stored.count, timeout: 10), stored)

                    // Then an event committed while the stream is open.
                    let live = try await api.runTask(
                        session: session, ["kind": "data", "request": ["url": origin.url("/bytes/7")]])
                    try await eventually(timeout: 10) {
                        recorder.events.contains { $0.event == "task.didCompleteWithError" && $0.data.contains(live.taskID) }
                    }
                    #expect(!recorder.isFinished)

                    // finishTasksAndInvalidate: the last event, then the body ends cleanly.
                    let invalidated = try await api.post("/v1/sessions/\(session)/finishTasksAndInvalidate")
                    #expect(invalidated.status == 200)
                    try await eventually(timeout: 10) { recorder.isFinished }
                    let response = try #require(try await group.next())
                    #expect(response.status == 200)
                    #expect(response.header("Content-Type") == "text/event-stream")
                    #expect(response.header("Cache-Control") == "no-cache")
                }
                let frames = recorder.events
                #expect(frames.last?.event == "session.didBecomeInvalidWithError")
                try Self.expectSame(frames, try await api.allEvents("/v1/sessions/\(session)/events"))
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func streamResumesAfterLastEventIDOrAfter() async throws {
            let origin = try FixtureOrigin.start()
            defer { origin.stop() }
            try await withTaskService { api, _ in
                let session = try await api.makeSession()
                _ = try await SessionEventsTests.runDataTasks(api, session: session, origin: origin, count: 2)
                #expect(try await api.post("/v1/sessions/\(session)/finishTasksAndInvalidate").status == 200)
                let all = try await api.allEvents("/v1/sessions/\(session)/events")
                try #require(all.count >= 6 && all.last?.eventType == "session.didBecomeInvalidWithError")

                // The log is closed, so each stream sends what follows its starting point and ends.
                let resumed = EventStreamRecorder()
                let response = try await resumed.run(
                    api.client, api.eventStreamRequest(session: session, query: "after=1", lastEventID: "3"))
                #expect(response.status == 200)
                try Self.expectSame(resumed.events, Array(all.dropFirst(3)))  // Last-Event-ID wins over after

                let fromQuery = EventStreamRecorder()
                _ = try await fromQuery.run(api.client, api.eventStreamRequest(session: session, query: "after=5"))
                try Self.expectSame(fromQuery.events, Array(all.dropFirst(5)))

                // Everything was sent: 204 tells an EventSource to stop reconnecting.
                let done = try await api.client.send(api.eventStreamRequest(session: session, lastEventID: "\(all.count)"))
                #expect(done.status == 204 && done.body.isEmpty)
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func aClientThatLeavesEndsItsStream() async throws {
            try await withTaskService { api, service in
                let session = try await api.makeSession()
                _ = try await api.createTask(session: session, ["kind": "data", "request": ["url": "http://127.0.0.1:9/"]])
                let recorder = EventStreamRecorder()
                try await withThrowingTaskGroup(of: TestHTTPResponse.self) { group in
                    group.addTask { try await recorder.run(api.client, api.eventStreamRequest(session: session)) }
                    try await recorder.waitForEvents(count: 1, timeout: 10)
                    group.cancelAll()  // the client closes its connection while the stream is idle
                    _ = try? await group.next()
                }
                // The server notices (its request completes) well before any heartbeat would have told it.
                try await eventually(timeout: 8, interval: 0.2) {
                    let metrics = try await api.client.send(.get(service.baseURL + "/metrics"))
                    return metrics.text.split(separator: "\n").contains { line in
                        line.hasPrefix("urlsessiond_http_requests_total{") && line.contains(#"route="/v1/sessions/{id}/events""#)
                    }
                }
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func shutdownEndsOpenStreamsPromptly() async throws {
            try await withTaskService { api, service in
                let session = try await api.makeSession()
                _ = try await api.createTask(session: session, ["kind": "data", "request": ["url": "http://127.0.0.1:9/"]])
                let recorders = [EventStreamRecorder(), EventStreamRecorder()]
                try await withThrowingTaskGroup(of: TestHTTPResponse.self) { group in
                    for recorder in recorders {
                        group.addTask { try await recorder.run(api.client, api.eventStreamRequest(session: session)) }
                    }
                    for recorder in recorders { try await recorder.waitForEvents(count: 1, timeout: 10) }
                    // Graceful shutdown waits up to 10 s for open requests; streams must not take that long.
                    let (status, seconds) = try await timed { try await service.terminate() }
                    #expect(status == 0)
                    #expect(seconds < 5, "shutdown took \(seconds) s with two streams open")
                    for try await response in group {
                        #expect(response.status == 200)  // ended with the last chunk: no transfer error thrown
                    }
                }
            }
        }
    }
}
