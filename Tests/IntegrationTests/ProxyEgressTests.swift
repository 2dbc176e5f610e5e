import Foundation
import TestSupport
import Testing

/// A proxy the egress policy allows is not a way around it: the target it would reach is held to the same
/// policy — an address as written, a name as the service resolves it — and a refused request never
/// reaches the proxy.
@Suite("Egress through a proxy")
struct ProxyEgressTests {
    @Test(.timeLimit(.minutes(1)))
    func aProxiedTargetPassesTheEgressPolicyToo() async throws {
        let proxy = try FixtureOrigin.start()  // answers absolute-form requests itself, as a proxy would forward them
        defer { proxy.stop() }
        // Only the proxy's address is allowed (127.0.0.1); 127.0.0.2, ::1 and the metadata service are not.
        let environment = Tokens.environment.merging([
            "URLSESSIOND_EGRESS_ALLOW": "127.0.0.1/32", "URLSESSIOND_PROXY": "http://127.0.0.1:\(proxy.port)",
        ]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await api.makeSession()
            // (A name is judged by what it resolves to: `ProxiedTargetCheckTests`; this host has no name for
            // a denied address.)
            for url in ["http://127.0.0.2:\(proxy.port)/echo", "http://169.254.169.254/latest/meta-data/", "http://[::1]:9/echo"] {
                let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
                #expect(task.errorCode == -1004 && task.errorReason == "egressPolicy", "\(url): \(task)")
            }
            #expect(
                proxy.requests(path: "/echo").isEmpty && proxy.requests(path: "/latest/meta-data/").isEmpty, "nothing reached the proxy")
            let allowed = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": "http://127.0.0.1:\(proxy.port)/echo"]])
            #expect(allowed.statusCode == 200, "an allowed target through the proxy: \(allowed)")
            #expect(proxy.requests(path: "/echo").count == 1)
        }
    }
}
