import JSONCodec
import TransferEngine
import TransferModels

extension ServiceConfiguration {
    /// The service's and each tenant's bandwidth limits (`--rate-limit` / `URLSESSIOND_RATE_LIMIT`,
    /// `--tenant-rate-limit` / `URLSESSIOND_TENANT_RATE_LIMIT`): a task's `rateLimit` JSON, flat or a timetable.
    mutating func configureRateLimits(_ overrides: Overrides, _ env: Environment) throws {
        engine.rateLimit = try Self.rateLimit(overrides.rateLimit ?? env["URLSESSIOND_RATE_LIMIT"], "URLSESSIOND_RATE_LIMIT")
        engine.tenantRateLimit = try Self.rateLimit(
            overrides.tenantRateLimit ?? env["URLSESSIOND_TENANT_RATE_LIMIT"], "URLSESSIOND_TENANT_RATE_LIMIT")
    }

    private static func rateLimit(_ text: String?, _ setting: String) throws -> RateLimit? {
        guard let text, !text.isEmpty else { return nil }
        do {
            return try RateLimitInput.parse(text, setting: setting)
        } catch {
            throw ConfigurationError(setting: error.field ?? setting, detail: error.detail)
        }
    }
}
