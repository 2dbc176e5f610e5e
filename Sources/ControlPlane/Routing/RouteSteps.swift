public import SessionTasks
public import TransferModels

/// What the steps routes list are made of: resolves each route's `RouteStep`s, once at start-up, into the
/// `HeadStep`s and `RouteMiddleware` its requests pass through.
public struct RouteSteps: Sendable {
    let authenticator: TokenAuthenticator
    let idempotency: IdempotencyKeys
    let quotaLimits: QuotaLimits
    let usage: any TenantUsageHints
    let errors: ProblemResponder

    /// - Parameters:
    ///   - authenticator: the tenants' tokens (`.authenticated`).
    ///   - idempotency: the `Idempotency-Key` claims and kept answers (`.idempotent`).
    ///   - quotaLimits: each tenant's limits (`.quota`), with `usage` what each holds as last read.
    ///   - errors: the error boundary, which the idempotency step needs to keep the answer an error gets.
    public init(
        authenticator: TokenAuthenticator, idempotency: IdempotencyKeys, quotaLimits: QuotaLimits, usage: any TenantUsageHints,
        errors: ProblemResponder
    ) {
        self.authenticator = authenticator
        self.idempotency = idempotency
        self.quotaLimits = quotaLimits
        self.usage = usage
        self.errors = errors
    }

    /// The steps of `route`, in its order. A list that cannot work as written stops the start-up: a step on
    /// the head listed after one around the handler (the list is the order they act in), a role or quota
    /// without the authentication before it, an idempotent route that is not a POST or that answers fast
    /// (a fast answer would pass the step by), a quota the body does not count against.
    func resolve(_ route: Route) -> (head: [any HeadStep], around: [any RouteMiddleware]) {
        var head: [any HeadStep] = []
        var around: [any RouteMiddleware] = []
        var isAuthenticated = false
        let name = "\(route.method) \(route.pattern)"
        for step in route.steps {
            precondition(!step.actsOnHead || around.isEmpty, "\(name): list \(step), which acts on the head, first")
            switch step {
            case .authenticated:
                head.append(Authentication(authenticator: authenticator))
                isAuthenticated = true
            case .admin:
                precondition(isAuthenticated, "\(name): .admin needs .authenticated before it")
                head.append(AdminRole())
            case .idempotent:
                precondition(route.method == "POST", "\(name): Idempotency-Key is for POSTs")
                precondition(route.fast == nil, "\(name): an idempotent route cannot answer fast")
                around.append(IdempotencyMiddleware(keys: idempotency, errors: errors))
            case .quota(let quota):
                precondition(isAuthenticated, "\(name): .quota needs .authenticated before it (the tenant)")
                precondition(quota == .blobBytes, "\(name): only the blobBytes quota bounds a body")
                head.append(BodyQuotaStep(quota: quota, limit: quotaLimits[quota], usage: usage))
            }
        }
        return (head, around)
    }
}

extension RouteStep {
    /// Whether the step acts on the head (on the HTTP thread, before the body) rather than around the handler.
    var actsOnHead: Bool {
        switch self {
        case .authenticated, .admin, .quota: true
        case .idempotent: false
        }
    }
}
