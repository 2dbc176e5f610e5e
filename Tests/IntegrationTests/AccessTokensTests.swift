import Foundation
import TestSupport
import Testing

/// Configured tokens are long enough to resist guessing, and `/metrics` can be closed with its own token
/// (`URLSESSIOND_METRICS_TOKEN`, `--metrics-token`).
@Suite("Access tokens")
struct AccessTokensTests {
    static let metricsToken = "metrics-token-0123456789abcdef"

    /// A token under 16 characters stops the service at start-up, from the variable or the flag, and the
    /// message never shows it.
    @Test(.timeLimit(.minutes(1)))
    func shortTokensAreRefusedAtStartupWithoutBeingEchoed() async throws {
        let short = "Sh0rtT0ken-15ch"  // 15 characters
        #expect(short.count == 15)
        let cases: [(environment: [String: String], arguments: [String], setting: String)] = [
            (["URLSESSIOND_TOKENS": "\(Tokens.tenantA):tenantA:user,\(short):tenantB:admin"], [], "URLSESSIOND_TOKENS"),
            ([:], ["--token", "\(short):tenantF:user"], "URLSESSIOND_TOKENS"),
            (["URLSESSIOND_METRICS_TOKEN": short], [], "URLSESSIOND_METRICS_TOKEN"),
            (Tokens.environment, ["--metrics-token", short], "URLSESSIOND_METRICS_TOKEN"),
        ]
        for (environment, arguments, setting) in cases {
            let log = try await expectStartupRefusal(environment: environment, arguments: arguments)
            #expect(log.contains(setting) && log.contains("shorter than 16 characters"), "\(log)")
            #expect(!log.contains(short), "the refusal shows the token: \(log)")
        }
    }

    /// Sixteen characters are enough.
    @Test(.timeLimit(.minutes(1)))
    func aSixteenCharacterTokenIsAccepted() async throws {
        let token = "Sixteen-chars-ok"
        #expect(token.count == 16)
        try await withRunningService(environment: ["URLSESSIOND_TOKENS": "\(token):tenantS:user"]) { service, client in
            let sessions = try await API(service, client, token: token).get("/v1/sessions")
            #expect(sessions.status == 200, "\(sessions.text)")
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func metricsNeedTheMetricsTokenWhenOneIsSet(fromFlag: Bool) async throws {
        let environment =
            fromFlag ? Tokens.environment : Tokens.environment.merging(["URLSESSIOND_METRICS_TOKEN": Self.metricsToken]) { $1 }
        let arguments = fromFlag ? ["--metrics-token", Self.metricsToken] : []
        try await withRunningService(environment: environment, arguments: arguments) { service, client in
            let api = API(service, client, token: Self.metricsToken)
            let allowed = try await Self.scrapeOnceARequestIsCounted(api)
            #expect(allowed.status == 200, "\(allowed.text)")
            #expect(allowed.text.contains("urlsessiond_http_requests_total"))
            // No token, another token (even an admin's), another scheme: 401 problem+json.
            for token in [nil, Tokens.admin, Self.metricsToken + "x", String(Self.metricsToken.dropLast())] {
                let refused = try await api.as(token).get("/metrics")
                expectProblem(refused, status: 401, slug: "unauthorized")
                #expect(refused.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                #expect(!refused.text.contains("urlsessiond_http_requests_total"))
            }
            let basic = try await api.as(nil).get("/metrics", headers: [("Authorization", "Basic \(Self.metricsToken)")])
            expectProblem(basic, status: 401, slug: "unauthorized")
            // The metrics token opens nothing else, and the other operation routes stay open.
            expectProblem(try await api.get("/v1/sessions"), status: 401, slug: "unauthorized")
            #expect(try await api.as(nil).get("/healthz").status == 200)
            #expect(try await api.as(nil).get("/openapi.yaml").status == 200)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func metricsStayOpenWithoutAMetricsToken() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let metrics = try await Self.scrapeOnceARequestIsCounted(API(service, client, token: nil))
            #expect(metrics.status == 200, "\(metrics.text)")
            #expect(metrics.text.contains("urlsessiond_http_requests_total"))
        }
    }

    /// `/metrics`, scraped again until it shows a counted request (or answers other than 200): a request is
    /// counted once its answer has been sent, so the first scrape can come before any count.
    static func scrapeOnceARequestIsCounted(_ api: API) async throws -> TestHTTPResponse {
        var metrics = try await api.get("/metrics")
        try await eventually(timeout: 10, interval: 0.05) {
            guard metrics.status == 200, !metrics.text.contains("urlsessiond_http_requests_total") else { return true }
            metrics = try await api.get("/metrics")
            return false
        }
        return metrics
    }
}
