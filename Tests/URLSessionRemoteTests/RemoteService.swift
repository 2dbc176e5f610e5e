import Foundation
import TestSupport
import URLSessionRemote

/// The real `urlsessiond` for these tests: one tenant, allowed to reach the fixture origin on loopback.
enum RemoteService {
    static let token = "token-remote-a-0123456789"
    static let environment = [
        "URLSESSIOND_TOKENS": "\(token):tenantA:user",
        // Loopback is denied by default; the tests' FixtureOrigin is on it.
        "URLSESSIOND_EGRESS_ALLOW": "127.0.0.0/8,::1",
    ]

    static func connection(_ service: ServiceProcess) throws -> RemoteConnection {
        guard let url = URL(string: service.baseURL) else { throw URLError(.badURL) }
        return RemoteConnection(url: url, token: Self.token)
    }
}

/// Runs `body` against a fresh service and its connection. The test talks to the service only through
/// `URLSessionRemote`; TestSupport starts and stops the processes.
func withRemoteService<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (RemoteConnection, ServiceProcess) async throws -> T
) async throws -> T {
    try await withRunningService(environment: RemoteService.environment, isolation: isolation) { service, _ in
        try await body(try RemoteService.connection(service), service)
    }
}

extension URL {
    /// A URL the tests build from a fixture origin's address.
    static func fixture(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw URLError(.badURL) }
        return url
    }
}
