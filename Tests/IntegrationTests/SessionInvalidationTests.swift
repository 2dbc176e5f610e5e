import Foundation
import TestSupport
import Testing

/// `finishTasksAndInvalidate()` and `invalidateAndCancel()` with tasks still running.
@Suite("Session invalidation with running tasks")
struct SessionInvalidationTests {
    private static let environment = ["URLSESSIOND_TOKENS": Tokens.list, "URLSESSIOND_EGRESS_ALLOW": "127.0.0.0/8"]

    private func startSlowTask(_ api: API, session: String, origin: FixtureOrigin) async throws -> String {
        let body = #"{"kind": "data", "request": {"url": "\#(origin.url("/drip?bytes=6&interval=0.25"))"}, "resume": true}"#
        let created = try await api.post("/v1/sessions/\(session)/tasks", json: body)
        #expect(created.status == 201)
        return try #require(try created.json()["id"] as? String)
    }

    @Test(.timeLimit(.minutes(1)))
    func finishTasksAndInvalidateWaitsForTheLastTask() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRunningService(environment: Self.environment) { service, client in
            let api = API(service, client)
            let session = try #require(try await api.createSession()["id"] as? String)
            let task = try await startSlowTask(api, session: session, origin: origin)
            let invalidating = try await api.post("/v1/sessions/\(session)/finishTasksAndInvalidate")
            #expect(try invalidating.json()["state"] as? String == "invalidating")
            let refused = try await api.post(
                "/v1/sessions/\(session)/tasks", json: #"{"kind": "data", "request": {"url": "\#(origin.url("/bytes/1"))"}}"#)
            #expect(refused.status == 409)
            let finished = try await api.get("/v1/tasks/\(task)?wait=20")
            #expect(try finished.json()["state"] as? String == "completed")
            #expect(try finished.json()["error"] is NSNull)
            try await eventually(timeout: 10) {
                try await api.get("/v1/sessions/\(session)").json()["state"] as? String == "invalidated"
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func invalidateAndCancelCancelsEveryTask() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRunningService(environment: Self.environment) { service, client in
            let api = API(service, client)
            let session = try #require(try await api.createSession()["id"] as? String)
            let running = try await startSlowTask(api, session: session, origin: origin)
            let suspendedBody = #"{"kind": "data", "request": {"url": "\#(origin.url("/bytes/10"))"}}"#
            let suspended = try #require(try await api.post("/v1/sessions/\(session)/tasks", json: suspendedBody).json()["id"] as? String)
            _ = try await api.post("/v1/sessions/\(session)/invalidateAndCancel")
            for task in [running, suspended] {
                let done = try await api.get("/v1/tasks/\(task)?wait=20").json()
                #expect(done["state"] as? String == "completed")
                #expect((done["error"] as? [String: Any])?["code"] as? Int == -999)
            }
            try await eventually(timeout: 10) {
                try await api.get("/v1/sessions/\(session)").json()["state"] as? String == "invalidated"
            }
        }
    }

    /// URLSession tears an invalidated session's connections down: they close as soon as its last task is
    /// done, not after the five minutes an idle session's connections are kept; another session's stay.
    @Test(.timeLimit(.minutes(1)))
    func anInvalidatedSessionsConnectionsClose() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRunningService(environment: Self.environment) { service, client in
            let api = API(service, client)
            let ending = try await api.makeSession(["urlCache": NSNull()])
            let staying = try await api.makeSession(["urlCache": NSNull()])
            for (index, session) in [ending, staying].enumerated() {
                let done = try await api.runTask(
                    session: session, ["kind": "data", "request": ["url": origin.url("/bytes/10?seed=\(index)")]])
                #expect(done.statusCode == 200, "\(done)")
            }
            try await eventually(timeout: 10) { origin.openConnections == 2 }  // each session keeps its own alive

            #expect(try await api.post("/v1/sessions/\(ending)/finishTasksAndInvalidate").status == 200)
            try await eventually(timeout: 10) { origin.openConnections == 1 }
            let again = try await api.runTask(session: staying, ["kind": "data", "request": ["url": origin.url("/bytes/10?seed=2")]])
            #expect(again.statusCode == 200, "\(again)")
            #expect(origin.acceptedConnections == 2, "the other session's connection was kept and used again")
        }
    }
}
