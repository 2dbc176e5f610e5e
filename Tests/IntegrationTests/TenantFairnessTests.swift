import Foundation
import TestSupport
import Testing

/// Slots are shared between tenants: one tenant's backlog of slow transfers never holds the slots
/// another tenant is waiting for.
@Suite("Tenant fairness")
struct TenantFairnessTests {
    /// Tenant A queues 40 slow downloads (a second each) into an engine of 4 slots, each tenant allowed
    /// all 4; tenant B's tasks, created after them, get the next free slots in turn instead of waiting
    /// behind A's backlog (about 10 seconds of it, during which 30-odd of A's tasks would finish).
    @Test(.timeLimit(.minutes(2)))
    func anotherTenantsBacklogDoesNotHoldTheFreedSlots() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let environment = TaskEnvironment.loopback.merging([
            "URLSESSIOND_MAX_TRANSFERS": "4", "URLSESSIOND_TENANT_MAX_TRANSFERS": "4",
        ]) { $1 }
        try await withTaskService(environment: environment) { tenantA, service in
            let tenantB = API(service, tenantA.client, token: Tokens.tenantB)
            let backlog = try await tenantA.makeSession(["httpMaximumConnectionsPerHost": 40])
            for index in 0..<40 {
                let url = origin.url("/bytes/100000?seed=\(index)&rate=100000")
                _ = try await tenantA.createTask(session: backlog, ["kind": "download", "request": ["url": url], "resume": true])
            }
            let session = try await tenantB.makeSession()
            let finishedBefore = try await Self.completedCount(tenantA, session: backlog)
            var created: [String] = []
            for index in 0..<3 {
                let url = origin.url("/bytes/1000?seed=\(index)")
                created.append(
                    try await tenantB.createTask(session: session, ["kind": "data", "request": ["url": url], "resume": true]).taskID)
            }
            for id in created {
                let done = try await tenantB.completedTask(id, within: 30)
                #expect(done.errorCode == nil, "\(done)")
            }
            // Each of B's tasks takes the next free slot: at most a round of A's transfers ends meanwhile.
            let finishedMeanwhile = try await Self.completedCount(tenantA, session: backlog) - finishedBefore
            #expect(finishedMeanwhile <= 8, "B waited behind A's backlog: \(finishedMeanwhile) of A's tasks finished meanwhile")
        }
    }

    /// By default one tenant runs at most half the engine's slots: with A's backlog filling its half, B's
    /// tasks start at once.
    @Test(.timeLimit(.minutes(2)))
    func aTenantRunsAtMostHalfTheSlotsByDefault() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_MAX_TRANSFERS": "4"]) { $1 }
        try await withTaskService(environment: environment) { tenantA, service in
            let tenantB = API(service, tenantA.client, token: Tokens.tenantB)
            let backlog = try await tenantA.makeSession(["httpMaximumConnectionsPerHost": 40])
            var slow: [String] = []
            for _ in 0..<6 {
                let url = origin.url("/stall?bytes=10&total=100")
                slow.append(
                    try await tenantA.createTask(session: backlog, ["kind": "data", "request": ["url": url], "resume": true]).taskID)
            }
            let running = try await Self.transferringCount(tenantA, slow)
            #expect(running == 2, "A's cap is half of 4: \(running)")
            let session = try await tenantB.makeSession()
            let quick = try await tenantB.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/1000?seed=1")]])
            #expect(quick.errorCode == nil, "B's task ran beside A's stalled ones: \(quick)")
            for id in slow { _ = try await tenantA.taskAction(id, "cancel") }
        }
    }

    static func completedCount(_ api: API, session: String) async throws -> Int {
        let listed = try await api.get("/v1/sessions/\(session)/tasks?limit=1000")
        let items = try #require(try listed.json()["items"] as? [[String: Any]])
        return items.filter { $0["state"] as? String == "completed" }.count
    }

    /// How many of `ids` have received bytes, once that number has held for half a second.
    static func transferringCount(_ api: API, _ ids: [String]) async throws -> Int {
        var last = -1
        for _ in 0..<40 {
            var count = 0
            for id in ids where (try await api.task(id).count("countOfBytesReceived") ?? 0) > 0 { count += 1 }
            if count == last && count > 0 { return count }
            last = count
            try await Task.sleep(for: .milliseconds(500))
        }
        return last
    }
}
