import Testing
import TransferModels

@testable import ControlPlane

/// `.quota(.blobBytes)` alone: the bound it puts on an upload from the tenant's usage hint, and the 507 a
/// body past it gets, counted by tenant and quota.
@Suite("Quota step")
struct BodyQuotaStepTests {
    func admit(limit: Int64, holding: Int64?, tenant: String = "alpha") -> BodyQuota? {
        var usage = FixedUsage()
        if let holding { usage.usage[tenant, default: TenantUsage()].blobBytes = holding }
        let step = BodyQuotaStep(quota: .blobBytes, limit: limit, usage: usage)
        var head = RequestHead(request: makeRequest("POST", "/v1/blobs"))
        head.request.principal = Principal(tenant: tenant, role: .user)
        #expect(step.admit(&head) == nil, "the step never refuses on the head alone: the body decides")
        return head.bodyQuota
    }

    @Test func noLimitPutsNoBound() {
        #expect(admit(limit: 0, holding: 5_000) == nil)
    }

    @Test func theBoundIsTheLimitLessWhatTheTenantHolds() throws {
        let quota = try #require(admit(limit: 1_000, holding: 300))
        #expect(quota == BodyQuota(quota: .blobBytes, limit: 1_000, usage: 300))
        #expect(quota.refusal(bodyBytes: 0) == nil)
        #expect(quota.refusal(bodyBytes: 700) == nil, "up to the limit exactly")
        #expect(quota.refusal(bodyBytes: 701) == QuotaExceeded(quota: .blobBytes, limit: 1_000, usage: 300))
    }

    @Test func aTenantTheHintDoesNotKnowHoldsNothing() throws {
        let quota = try #require(admit(limit: 1_000, holding: nil, tenant: "newcomer"))
        #expect(quota.usage == 0)
        #expect(quota.refusal(bodyBytes: 1_000) == nil)
        #expect(quota.refusal(bodyBytes: 1_001) != nil)
    }

    @Test func aTenantAlreadyAtItsLimitMaySendNothing() throws {
        let quota = try #require(admit(limit: 1_000, holding: 1_000))
        #expect(quota.refusal(bodyBytes: 0) == nil)
        #expect(quota.refusal(bodyBytes: 1) != nil)
    }

    @Test func theRefusalIsA507NamingTheQuotaAndCounted() throws {
        let metrics = MetricsFixture()
        let exceeded = QuotaExceeded(quota: .blobBytes, limit: 1_000, usage: 300)
        var request = makeRequest("POST", "/v1/blobs")
        request.principal = Principal(tenant: "alpha", role: .user)
        let response = metrics.errors.response(for: exceeded, request: request)
        #expect(response.status == 507)
        let body = try ProblemBody(response)
        #expect(body.type == "urn:urlsessiond:problem:quota-exceeded")
        #expect(body.members["title"] as? String == "Insufficient Storage")
        #expect(body.members["quota"] as? String == "blobBytes")
        #expect(body.members["limit"] as? Int == 1_000)
        #expect(body.members["usage"] as? Int == 300)
        #expect(metrics.exposition.contains(#"urlsessiond_quota_exceeded_total{tenant="alpha",quota="blobBytes"} 1"#))
    }
}
