public import SessionTasks
public import TransferModels

/// What a tenant holds of each quota, as last read, answered from memory on the HTTP thread.
public protocol TenantUsageHints: Sendable {
    /// nil: nothing known of the tenant (it holds nothing).
    func usageHint(tenant: String) -> TenantUsage?
}

/// The application layer's hint: every tenant's usage read at start-up and again after each change that moves it.
extension TenantUsages: TenantUsageHints {}

/// `.quota(.blobBytes)`: an upload stops as it arrives once it would take its tenant past the quota's
/// limit (507, and what was spooled is removed), not after it was read whole. The usage is the hint; the
/// store checks again, exactly, when it records the blob. No limit (0): no bound.
struct BodyQuotaStep: HeadStep {
    let quota: Quota
    let limit: Int64
    let usage: any TenantUsageHints

    func admit(_ head: inout RequestHead) -> Problem? {
        guard limit > 0 else { return nil }
        let held = usage.usageHint(tenant: head.request.tenant)?[quota] ?? 0
        head.bodyQuota = BodyQuota(quota: quota, limit: limit, usage: held)
        return nil
    }
}
