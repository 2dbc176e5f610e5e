public import TransferModels

/// A step a route's requests pass through before its handler, as the route lists it: reading a route's
/// declaration tells what it passes through, in order. Each is resolved once, at start-up
/// (`RouteSteps.resolve`), into a `HeadStep` or a `RouteMiddleware`; a request pays for none of it.
public enum RouteStep: Sendable, Hashable {
    /// A valid bearer token (`Authorization: Bearer <token>`): the request's principal, hence its tenant.
    /// 401 problem+json with `WWW-Authenticate` without one. Before any of the body is read.
    case authenticated
    /// The principal has the admin role: 403 otherwise. After `.authenticated`.
    case admin
    /// `Idempotency-Key` (POST only): the same key, method, path and body within 24 h get the first answer
    /// again and create nothing; a key claimed by another request, or still being answered, is a 409.
    case idempotent
    /// The body counts against the tenant's byte `quota` as it arrives (`blobBytes`): 507 as soon as it
    /// would pass the limit, before the handler runs. After `.authenticated`. The other quotas are checked
    /// where their usage is exact (the store's transactions, `StreamQuota`); their refusals are counted
    /// wherever they are answered (`ProblemResponder`).
    case quota(Quota)
}
