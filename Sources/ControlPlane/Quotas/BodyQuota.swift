public import TransferModels

/// A bound on a request's body from one of its tenant's byte quotas: the tenant holds `usage` of `limit`.
public struct BodyQuota: Sendable, Hashable {
    public var quota: Quota
    public var limit: Int64
    public var usage: Int64

    public init(quota: Quota, limit: Int64, usage: Int64) {
        self.quota = quota
        self.limit = limit
        self.usage = usage
    }

    /// The refusal once `bytes` of body would take the tenant past the limit; nil while they fit.
    public func refusal(bodyBytes bytes: Int64) -> QuotaExceeded? {
        usage + bytes > limit ? QuotaExceeded(quota: quota, limit: limit, usage: usage) : nil
    }
}
