import Crypto
import Foundation
import Logging
import Prometheus
import TestSupport
import TransferModels
import TransferStore

@testable import ControlPlane

/// The tokens the tests present: two tenants with the user role, one admin.
enum Tokens {
    static let alpha = "alpha-token"
    static let beta = "beta-token"
    static let root = "root-token"

    static let authenticator = TokenAuthenticator(tokens: [
        alpha: Principal(tenant: "alpha", role: .user),
        beta: Principal(tenant: "beta", role: .user),
        root: Principal(tenant: "ops", role: .admin),
    ])
}

/// A request as the server hands it to the pipeline once its head is read (header names lowercased).
func makeRequest(
    _ method: String = "GET", _ path: String = "/", token: String? = nil, headers: [(name: String, value: String)] = [],
    query: [(name: String, value: String)] = [], body: String = ""
) -> HTTPRequest {
    var fields = headers
    if let token { fields.append(("authorization", "Bearer \(token)")) }
    return HTTPRequest(
        method: method, path: path, query: query, headers: fields, body: Array(body.utf8), spooledBody: nil, parameters: [:],
        principal: nil, requestID: "test-request")
}

/// A real SQLite store in a temporary directory (the idempotency keys live in its `idempotency` aggregate).
struct StoreFixture {
    let directory: TemporaryDirectory
    let store: TransferStore

    init(quotaLimits: QuotaLimits = .unlimited) throws {
        directory = try TemporaryDirectory.make(prefix: "control-plane")
        store = try TransferStore(
            path: directory.url.appendingPathComponent("urlsessiond.sqlite").path, secrets: SecretBox(key: SymmetricKey(size: .bits256)),
            logger: quietLogger, quotaLimits: quotaLimits)
    }

    func close() {
        try? store.close()
        directory.remove()
    }
}

/// A logger that prints nothing: the error boundary logs the failures the tests provoke.
let quietLogger = Logger(label: "control-plane-tests", factory: { _ in SwiftLogNoOpLogHandler() })

/// The metrics the error boundary counts quota refusals into, and their Prometheus text.
struct MetricsFixture {
    let metrics = HTTPMetrics(registry: PrometheusCollectorRegistry())
    var errors: ProblemResponder { ProblemResponder(tenants: metrics.tenants, logger: quietLogger) }
    var exposition: String { metrics.exposition() }
}

/// Usage hints from memory: what each tenant holds, as the store's hint would say.
struct FixedUsage: TenantUsageHints {
    var usage: [String: TenantUsage] = [:]
    func usageHint(tenant: String) -> TenantUsage? { usage[tenant] }
}

/// Counts a handler's runs.
final class Calls: Sendable {
    private let box = LockedBox(0)
    var count: Int { box.withLock { $0 } }
    func record() { box.withLock { $0 += 1 } }
}

/// The problem+json members of a response.
struct ProblemBody {
    let status: Int
    let type: String
    let detail: String
    let field: String?
    let members: [String: Any]

    init(_ response: HTTPResponse) throws {
        let object = try JSONSerialization.jsonObject(with: Data(response.bodyBytes)) as? [String: Any] ?? [:]
        members = object
        status = object["status"] as? Int ?? 0
        type = object["type"] as? String ?? ""
        detail = object["detail"] as? String ?? ""
        field = object["field"] as? String
    }
}

extension HTTPResponse {
    var text: String { String(decoding: bodyBytes, as: UTF8.self) }
}
