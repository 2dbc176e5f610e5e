public import TransferModels
public import TransferStore

/// Each tenant's usage and the quotas it is held to (`/v1/usage`, the quota step, `/metrics`).
public struct TenantUsages: Sendable {
    let store: TransferStore

    public init(store: TransferStore) { self.store = store }

    /// What every tenant may hold (`URLSESSIOND_QUOTA_*`).
    public var limits: QuotaLimits { store.quotaLimits }

    /// What the tenant holds by each stored quota, read now.
    public func usage(tenant: String) async throws -> TenantUsage {
        try await store.usage.usage(tenant: tenant)
    }

    /// Every tenant's usage, read now: one entry per tenant that ever held something.
    public func allUsage() async throws -> [String: TenantUsage] {
        try await store.usage.allUsage()
    }

    /// What the tenant held as last read (at start-up and after each change that moves it), from memory;
    /// nil: nothing known of it.
    public func usageHint(tenant: String) -> TenantUsage? {
        store.usage.usageHint(tenant: tenant)
    }
}
