public import Logging
import TransferModels

/// The error boundary of every route: what a handler or a step throws, as the client gets it. A problem
/// (or an error that maps to one: `ProblemMapping`) is its problem+json, a quota's refusal counted
/// (`urlsessiond_quota_exceeded_total`); anything else is a bare 500 whose cause is logged under the
/// request's id.
public struct ProblemResponder: Sendable {
    let tenants: TenantMetrics
    let logger: Logger

    public init(tenants: TenantMetrics, logger: Logger) {
        self.tenants = tenants
        self.logger = logger
    }

    public func response(for error: any Error, request: HTTPRequest) -> HTTPResponse {
        if let problem = ProblemMapping.problem(for: error) {
            if let exceeded = problem.quota { tenants.quotaExceeded(tenant: request.tenant, quota: exceeded.quota) }
            return problem.response
        }
        var logger = self.logger
        logger[metadataKey: "request.id"] = "\(request.requestID)"
        logger.error("Request failed", metadata: ["http.method": "\(request.method)", "error": "\(String(reflecting: error))"])
        return Problem.internalError.response
    }
}
