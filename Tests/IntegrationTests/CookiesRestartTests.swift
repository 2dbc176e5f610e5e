import Foundation
import TestSupport
import Testing

/// Persistent cookies outlive the service (written every quarter second, on `flush` and at shutdown);
/// session cookies do not, as `HTTPCookieStorage` keeps those for the app's life only.
@Suite("Cookies across restarts")
struct CookiesRestartTests {
    static func persistentCookie(_ name: String) -> String {
        "\(name)=1; Max-Age=3600; Path=/".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test(.timeLimit(.minutes(1)))
    func flushedCookiesSurviveAKillAndSessionCookiesDoNot() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-cookies")
        defer { directory.remove() }
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let session = try await api.makeSession()
        _ = try await CookiesTests.fetch(api, session, origin.url("/redirect/302?to=/echo&cookie=\(Self.persistentCookie("kept"))"))
        _ = try await CookiesTests.fetch(api, session, origin.url("/cookies/set?sessionOnly=1"))
        let ephemeral = try await api.makeSession(["kind": "ephemeral"])
        _ = try await CookiesTests.fetch(api, ephemeral, origin.url("/redirect/302?to=/echo&cookie=\(Self.persistentCookie("eph"))"))
        #expect(try await api.post("/v1/sessions/\(session)/flush").status == 204)
        await first.kill9()

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        let later = try await again.makeSession()  // the tenant's shared storage, read back from the store
        #expect(try await CookiesTests.received(again, try await CookiesTests.fetch(again, later, origin.url("/cookies"))) == ["kept": "1"])
        #expect(try await second.terminate() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func aGracefulStopWritesWhatTheLastResponsesSet() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-cookies")
        defer { directory.remove() }
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let session = try await api.makeSession(["httpCookieStorage": "private"])
        _ = try await CookiesTests.fetch(api, session, origin.url("/redirect/302?to=/echo&cookie=\(Self.persistentCookie("mine"))"))
        #expect(try await first.terminate() == 0)

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        #expect(
            try await CookiesTests.received(again, try await CookiesTests.fetch(again, session, origin.url("/cookies"))) == ["mine": "1"])
        let other = try await again.makeSession()
        #expect(try await CookiesTests.received(again, try await CookiesTests.fetch(again, other, origin.url("/cookies"))) == [:])
        #expect(try await again.post("/v1/sessions/\(session)/reset").status == 204)
        #expect(try await CookiesTests.received(again, try await CookiesTests.fetch(again, session, origin.url("/cookies"))) == [:])
        #expect(try await second.terminate() == 0)
    }
}
