import Testing

@testable import TransferEngine

/// The max-min division of bandwidth limits over service ⊃ tenant ⊃ session ⊃ task. Pure values.
@Suite("Fair share")
struct FairShareTests {
    typealias Flow = FairShare.Flow<String>

    static func flow(_ key: String, tenant: String = "t", session: String = "s", limit: Double? = nil, demand: Double? = nil) -> Flow {
        Flow(key: key, tenant: tenant, session: session, limit: limit, demand: demand)
    }

    @Test
    func waterFillingGivesSmallDemandsWhatTheyWantAndSplitsTheRest() {
        #expect(FairShare.waterFill(400, demands: [.infinity, .infinity, .infinity, .infinity]) == [100, 100, 100, 100])
        #expect(FairShare.waterFill(400, demands: [10, .infinity, .infinity, .infinity]) == [10, 130, 130, 130])
        #expect(FairShare.waterFill(400, demands: [50, 500, 120, 60]) == [50, 170, 120, 60])
        #expect(FairShare.waterFill(400, demands: [50, 60]) == [50, 60], "what nobody wants stays undivided")
        #expect(FairShare.waterFill(0, demands: [1, 2]) == [0, 0])
        #expect(FairShare.waterFill(10, demands: []) == [])
    }

    @Test
    func aSessionLimitIsSharedByItsTransfersAndAnIdleOneLeavesItsPart() {
        let busy = (0..<4).map { Self.flow("f\($0)") }
        let shares = FairShare.shares(busy, service: nil, tenant: nil, sessions: ["s": 4_000_000])
        #expect(shares.values.allSatisfy { $0 == 1_000_000 }, "\(shares)")
        var oneIdle = busy
        oneIdle[0].demand = 100_000
        let rebalanced = FairShare.shares(oneIdle, service: nil, tenant: nil, sessions: ["s": 4_000_000])
        #expect(rebalanced["f0"] == 100_000)
        #expect(rebalanced["f1"] == 1_300_000 && rebalanced["f2"] == 1_300_000 && rebalanced["f3"] == 1_300_000, "\(rebalanced)")
    }

    @Test
    func withoutAnyLimitNothingIsLimited() {
        let shares = FairShare.shares([Self.flow("a"), Self.flow("b", tenant: "u")], service: nil, tenant: nil, sessions: [:])
        #expect(shares["a"] == .some(nil) && shares["b"] == .some(nil), "\(shares)")
        let own = FairShare.shares([Self.flow("a", limit: 500)], service: nil, tenant: nil, sessions: [:])
        #expect(own["a"] == 500, "a task's own limit alone")
    }

    @Test
    func theHierarchyDividesTheServiceBetweenTenantsThenSessionsThenTasks() {
        // Service 9: tenants t and u get 4.5 each (tenant limit 6 is not reached). In t, session s1 (two
        // tasks) and s2 (one task limited to 0.5) — s2 takes 0.5, s1 gets 4, split 2 and 2. In u, one task.
        let flows = [
            Self.flow("t-s1-a", tenant: "t", session: "s1"), Self.flow("t-s1-b", tenant: "t", session: "s1"),
            Self.flow("t-s2-a", tenant: "t", session: "s2", limit: 0.5), Self.flow("u-s3-a", tenant: "u", session: "s3"),
        ]
        let shares = FairShare.shares(flows, service: 9, tenant: 6, sessions: [:])
        #expect(shares["t-s1-a"] == 2 && shares["t-s1-b"] == 2, "\(shares)")
        #expect(shares["t-s2-a"] == 0.5 && shares["u-s3-a"] == 4.5, "\(shares)")
        // A tenant limit below the service's half binds first, and the other tenant takes what is left.
        let tight = FairShare.shares(flows, service: 9, tenant: 3, sessions: [:])
        #expect(tight["t-s2-a"] == 0.5 && tight["t-s1-a"] == 1.25 && tight["u-s3-a"] == 3, "\(tight)")
        // A session limit below its share holds inside it; tenant t then takes only 1.5 of the service's 9,
        // and u's task takes what t leaves, up to its tenant's 6.
        let session = FairShare.shares(flows, service: 9, tenant: 6, sessions: ["s1": 1])
        #expect(session["t-s1-a"] == 0.5 && session["t-s1-b"] == 0.5 && session["u-s3-a"] == 6, "\(session)")
    }
}
