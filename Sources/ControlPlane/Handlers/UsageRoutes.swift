import SessionTasks
import TransferModels

/// `GET /v1/usage`: what the calling tenant holds of each quota, and its limits. An admin token may ask
/// about another tenant with `?tenant=`; a user token sees only its own.
struct UsageRoutes {
    let usage: TenantUsages
    let streams: StreamQuota

    var routes: [Route] {
        [Route("GET", "/v1/usage", steps: [.authenticated]) { try await usage($0) }]
    }

    private func usage(_ request: HTTPRequest) async throws -> HTTPResponse {
        var tenant = request.tenant
        if let asked = request.queryValue("tenant"), asked != tenant {
            guard request.principal?.role == .admin else {
                throw Problem.forbidden("only an admin token may read another tenant's usage")
            }
            guard !asked.isEmpty else { throw Problem.invalidValue("tenant", "must name a tenant") }
            tenant = asked
        }
        return try .json(UsageReport(tenant: tenant, usage: try await current(tenant: tenant), limits: limits))
    }

    /// The stored quotas' limits, and the streams' (kept by the control plane).
    var limits: QuotaLimits {
        var limits = usage.limits
        limits.streams = streams.limit
        return limits
    }

    func current(tenant: String) async throws -> TenantUsage {
        var usage = try await self.usage.usage(tenant: tenant)
        usage.streams = streams.count(tenant: tenant)
        return usage
    }

    /// Every tenant's usage, for the gauges of `/metrics`.
    func all() async throws -> [String: TenantUsage] {
        var all = try await usage.allUsage()
        for (tenant, count) in streams.counts { all[tenant, default: TenantUsage()].streams = count }
        return all
    }
}

/// The body of `GET /v1/usage`: `{"tenant": …, "quotas": {"sessions": {"usage": 3, "limit": 1000}, …}}`,
/// `limit` null where there is none.
struct UsageReport: Encodable {
    var tenant: String
    var usage: TenantUsage
    var limits: QuotaLimits

    private struct Entry: Encodable {
        var usage: Int64
        var limit: Int64?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(usage, forKey: .usage)
            try container.encode(limit, forKey: .limit)  // null: no limit
        }
        enum CodingKeys: String, CodingKey { case usage, limit }
    }

    private struct QuotaKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    enum CodingKeys: String, CodingKey { case tenant, quotas }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tenant, forKey: .tenant)
        var quotas = container.nestedContainer(keyedBy: QuotaKey.self, forKey: .quotas)
        for quota in Quota.allCases {
            let limit = limits[quota]
            try quotas.encode(Entry(usage: usage[quota], limit: limit > 0 ? limit : nil), forKey: QuotaKey(stringValue: quota.rawValue))
        }
    }
}
