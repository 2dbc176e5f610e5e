import Foundation
import TestSupport
import Testing

/// `connectionProxyDictionary`'s SOCKS keys through a real SOCKS5 server (Debian's danted, asking for a
/// username and password): the login is sent (RFC 1929) yet never shown, logged or stored in clear; a
/// wrong one fails the task with the proxy's refusal; and the proxy is no way around the egress policy.
@Suite("SOCKS proxies", .enabled(if: DanteSOCKSProxy.isAvailable, "needs danted (dante-server) and root"))
struct SOCKSProxyTests {
    /// A session whose proxy is `proxy` with its login (or `password`); its creation's answer shows no
    /// part of the login.
    static func socksSession(
        _ api: API, _ proxy: DanteSOCKSProxy, password: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let configuration: [String: Any] = [
            "connectionProxyDictionary": [
                "SOCKSEnable": true, "SOCKSProxy": "127.0.0.1", "SOCKSPort": proxy.port,
                "SOCKSUser": proxy.user, "SOCKSPassword": password ?? proxy.password,
            ]
        ]
        let created = try await api.post("/v1/sessions", json: try jsonText(["configuration": configuration]))
        try #require(created.status == 201, "\(created.text)", sourceLocation: sourceLocation)
        #expect(
            !created.text.contains(password ?? proxy.password) && !created.text.contains(proxy.user), "\(created.text)",
            sourceLocation: sourceLocation)
        return try #require(try created.json()["id"] as? String, sourceLocation: sourceLocation)
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskGoesThroughTheProxyWithItsLoginWhichIsNeverShownNorStoredInClear() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let proxy = try await DanteSOCKSProxy.start()
        defer { proxy.stop() }
        try await withTaskService { api, service in
            let session = try await Self.socksSession(api, proxy)
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/echo")]])
            #expect(task.statusCode == 200, "\(task)")
            #expect(proxy.connections(to: origin.port) == 1, "the request went through danted: \(proxy.log)")
            #expect(origin.requests(path: "/echo").count == 1)

            let shown = try await api.get("/v1/sessions/\(session)")
            #expect(shown.status == 200)
            let dictionary = try #require(
                (try shown.json()["configuration"] as? [String: Any])?["connectionProxyDictionary"] as? [String: Any])
            #expect(
                dictionary["SOCKSProxy"] as? String == "127.0.0.1" && dictionary["SOCKSUser"] == nil && dictionary["SOCKSPassword"] == nil)
            #expect(!shown.text.contains(proxy.password) && !service.stderrText().contains(proxy.password))
            for secret in [proxy.password, proxy.user] {
                let files = try CredentialsTests.databaseFiles(in: service.dataDirectory, holding: secret)
                #expect(files.isEmpty, "\(secret) in clear in \(files)")
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aWrongPasswordFailsWithTheProxysRefusal() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let proxy = try await DanteSOCKSProxy.start()
        defer { proxy.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.socksSession(api, proxy, password: "not-" + proxy.password)
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/echo")]])
            #expect(task.errorCode == -1004, "\(task)")
            let underlying = try #require(task.errorObject?["underlying"] as? [String: Any], "\(task)")
            #expect(underlying["code"] as? Int == 97, "CURLE_PROXY: \(underlying)")
            #expect((underlying["message"] as? String)?.contains("rejected by the SOCKS5 server") == true, "\(underlying)")
            #expect(proxy.refusedLogins >= 1, "\(proxy.log)")
            #expect(origin.requests(path: "/echo").isEmpty)
        }
    }

    /// The proxy resolves names (`socks5h`), so the service judges the target itself before the request
    /// leaves, as it does for HTTP proxies (`ProxyEgressTests`): a refused target never reaches danted.
    @Test(.timeLimit(.minutes(1)))
    func aProxiedTargetInADeniedRangeIsRefused() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let proxy = try await DanteSOCKSProxy.start()
        defer { proxy.stop() }
        // Only 127.0.0.1 (the proxy's address and the allowed target) passes.
        let environment = Tokens.environment.merging(["URLSESSIOND_EGRESS_ALLOW": "127.0.0.1/32"]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await Self.socksSession(api, proxy)
            for url in ["http://127.0.0.2:\(origin.port)/echo", "http://169.254.169.254/latest/meta-data/"] {
                let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
                #expect(task.errorCode == -1004 && task.errorReason == "egressPolicy", "\(url): \(task)")
            }
            #expect(proxy.connections(to: origin.port) == 0 && !proxy.log.contains("169.254"), "nothing went through: \(proxy.log)")
            let allowed = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/echo")]])
            #expect(allowed.statusCode == 200, "\(allowed)")
            #expect(proxy.connections(to: origin.port) == 1, "\(proxy.log)")
        }
    }
}
