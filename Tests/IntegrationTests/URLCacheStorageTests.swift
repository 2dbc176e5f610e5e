import Foundation
import TestSupport
import Testing

/// The URL cache as a storage: `willCacheResponse`'s answers, the cache API, scopes and tenants,
/// `reset`, and what survives a kill -9 after `flush`.
@Suite("URL cache storage")
struct URLCacheStorageTests {
    static let willCache = "dataTask.willCacheResponse"

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            (#"{"disposition": "allowed"}"#, "allowed", 1),
            (#"{"disposition": "allowedInMemoryOnly"}"#, "allowedInMemoryOnly", 1),
            (#"{"disposition": "notAllowed"}"#, nil, 2),
            (#"{"disposition": "allowed", "userInfo": {"tag": 7}}"#, "allowed", 1),
            ("not json", "allowed", 1),
        ] as [(String, String?, Int)])
    func willCacheResponseDecidesHowTheResponseIsStored(answer: String, policy: String?, originRequests: Int) async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            // The receiver answers at once: the timeout only bounds a loaded machine's delivery of the
            // events before the decision (2 s, the default here, once let default handling win on PostgreSQL).
            let session = try await TaskDecisionsTests.session(api, receiver: receiver, decision: Self.willCache, timeout: 10) { _ in
                .json(answer)
            }
            let url = URLCacheTests.url(origin, "asked", ["cc": "max-age=60"])
            let first = try await URLCacheTests.fetch(api, session, url)
            #expect(first.errorCode == nil, "\(first)")
            let asked = receiver.requests.compactMap { try? $0.json() }.filter { $0["type"] as? String == Self.willCache }
            #expect(asked.count == 1)
            let proposed = (asked.first?["data"] as? [String: Any])?["proposedResponse"] as? [String: Any]
            #expect(proposed?["storagePolicy"] as? String == "allowed", "\(String(describing: proposed))")
            #expect(int((proposed?["response"] as? [String: Any])?["statusCode"]) == 200)

            let entry = try await api.get("/v1/sessions/\(session)/cache/entry?url=\(Self.encoded(url))")
            if let policy {
                #expect(entry.status == 200, "\(entry.text)")
                #expect(try entry.json()["storagePolicy"] as? String == policy)
                if answer.contains("userInfo") {
                    #expect(((try entry.json()["userInfo"]) as? [String: Any])?["tag"] as? Int == 7, "\(entry.text)")
                }
            } else {
                #expect(entry.status == 404)
            }
            _ = try await URLCacheTests.fetch(api, session, url)
            #expect(origin.requests(path: "/cacheable/asked").count == originRequests)
            let download = try await URLCacheTests.fetch(
                api, session, URLCacheTests.url(origin, "download", ["cc": "max-age=60"]), kind: "download")
            #expect(download.errorCode == nil)
            let askedAfter = receiver.requests.compactMap { try? $0.json() }.filter { $0["type"] as? String == Self.willCache }
            #expect(askedAfter.count == asked.count + (policy == nil ? 1 : 0), "downloads are cached without asking")
        }
    }

    static func encoded(_ url: String) -> String { url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }

    @Test(.timeLimit(.minutes(1)))
    func theCacheAPIListsRemovesAndIsolatesTenantsAndSessions() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let shared = try await api.makeSession()
            let url = URLCacheTests.url(origin, "api", ["cc": "max-age=60", "etag": "\"a\""])
            let first = try await URLCacheTests.fetch(api, shared, url)
            let usage = try await api.get("/v1/sessions/\(shared)/cache").json()
            #expect(usage["storage"] as? String == "shared" && int(usage["entryCount"]) == 1, "\(usage)")
            let entry = try await api.get("/v1/sessions/\(shared)/cache/entry?url=\(Self.encoded(url))").json()
            let body = try await api.taskData(first.taskID).body
            #expect(entry["data"] as? String == Data(body).base64EncodedString())
            #expect(int(entry["dataLength"]) == body.count)
            #expect(int((entry["response"] as? [String: Any])?["statusCode"]) == 200)

            let another = try await api.makeSession()
            #expect(try await api.get("/v1/sessions/\(another)/cache/entry?url=\(Self.encoded(url))").status == 200, "shared")
            let ephemeral = try await api.makeSession(["kind": "ephemeral"])
            #expect(try await api.get("/v1/sessions/\(ephemeral)/cache/entry?url=\(Self.encoded(url))").status == 404)
            let none = try await api.makeSession(["urlCache": NSNull()])
            #expect(try await api.get("/v1/sessions/\(none)/cache").json()["storage"] as? String == "none")
            let tenantB = API(service, api.client, token: Tokens.tenantB)
            let theirs = try await tenantB.makeSession()
            #expect(try await tenantB.get("/v1/sessions/\(theirs)/cache/entry?url=\(Self.encoded(url))").status == 404)
            #expect(try await tenantB.get("/v1/sessions/\(shared)/cache").status == 404)

            #expect(try await api.get("/v1/sessions/\(shared)/cache/entry").status == 422)
            #expect(try await api.get("/v1/sessions/\(shared)/cache/entry?url=ftp%3A%2F%2Fx").status == 422)
            #expect(try await api.delete("/v1/sessions/\(shared)/cache?since=yesterday").status == 422)
            #expect(try await api.delete("/v1/sessions/\(shared)/cache/entry?url=\(Self.encoded(url))").status == 204)
            #expect(try await api.delete("/v1/sessions/\(shared)/cache/entry?url=\(Self.encoded(url))").status == 404)
            _ = try await URLCacheTests.fetch(api, shared, url)
            #expect(origin.requests(path: "/cacheable/api").count == 2)
            let future = Self.encoded("2099-01-01T00:00:00Z")
            #expect(try await api.delete("/v1/sessions/\(shared)/cache?since=\(future)").status == 204)
            #expect(try await api.get("/v1/sessions/\(shared)/cache").json()["entryCount"] as? Int == 1)
            #expect(try await api.delete("/v1/sessions/\(shared)/cache").status == 204)
            #expect(try await api.get("/v1/sessions/\(shared)/cache").json()["entryCount"] as? Int == 0)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func resetEmptiesTheCacheAndRemovesTheSessionsFiles() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = URLCacheTests.url(origin, "reset", ["cc": "max-age=60"])
            let download = try await URLCacheTests.fetch(
                api, session, URLCacheTests.url(origin, "file", ["size": "100000"]), kind: "download")
            _ = try await URLCacheTests.fetch(api, session, url)
            #expect(try await api.taskFile(download.taskID).status == 200)
            #expect(try await api.post("/v1/sessions/\(session)/reset").status == 204)
            #expect(try await api.taskFile(download.taskID).status == 404, "reset removes the session's files")
            _ = try await URLCacheTests.fetch(api, session, url)
            #expect(origin.requests(path: "/cacheable/reset").count == 2, "nothing is served after reset")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func flushClosesIdleConnectionsAndResetEveryOne() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["urlCache": NSNull()])
            let connections = { origin.requests(path: "/echo").map(\.connectionID) }
            for _ in 0..<2 { _ = try await URLCacheTests.fetch(api, session, origin.url("/echo")) }
            #expect(Set(connections()).count == 1, "kept alive: \(connections())")
            #expect(try await api.post("/v1/sessions/\(session)/flush").status == 204)
            _ = try await URLCacheTests.fetch(api, session, origin.url("/echo"))
            #expect(Set(connections()).count == 2, "flush closed the idle connection: \(connections())")
            #expect(try await api.post("/v1/sessions/\(session)/reset").status == 204)
            _ = try await URLCacheTests.fetch(api, session, origin.url("/echo"))
            #expect(Set(connections()).count == 3, "reset closed it: \(connections())")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func flushedEntriesSurviveAKillAndEphemeralOnesNeverReachTheDisk() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-cache")
        defer { directory.remove() }
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let session = try await api.makeSession()
        // 20,000 bytes: a body kept in the store; 100,000: a file (and over 5% of the memory tier).
        let kept = URLCacheTests.url(origin, "kept", ["cc": "max-age=600", "size": "20000"])
        let original = try await URLCacheTests.fetch(api, session, kept)
        let large = URLCacheTests.url(origin, "large", ["cc": "max-age=600", "size": "100000"])
        let largeOriginal = try await URLCacheTests.fetch(api, session, large, kind: "download")
        let ephemeral = try await api.makeSession(["kind": "ephemeral"])
        _ = try await URLCacheTests.fetch(api, ephemeral, URLCacheTests.url(origin, "memory", ["cc": "max-age=600"]))
        #expect(try await api.post("/v1/sessions/\(session)/flush").status == 204)
        let cacheFiles = try FileManager.default.subpathsOfDirectory(atPath: directory.url.appendingPathComponent("cache").path)
        #expect(!cacheFiles.contains { $0.contains("session-\(ephemeral)") }, "\(cacheFiles)")
        let body = try await api.taskData(original.taskID).body
        let largeBody = try await api.taskFile(largeOriginal.taskID).body
        #expect(try await api.delete("/v1/tasks/\(largeOriginal.taskID)/file").status == 204, "the cache keeps its own link")
        await first.kill9()

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        let later = try await again.makeSession()
        let served = try await URLCacheTests.fetch(again, later, kept)
        #expect(origin.requests(path: "/cacheable/kept").count == 1, "read back from the store and the file")
        #expect(try await again.taskData(served.taskID).body == body)
        #expect(try await URLCacheTests.fetchType(again, served) == "localCache")
        let largeServed = try await URLCacheTests.fetch(again, later, large)
        #expect(origin.requests(path: "/cacheable/large").count == 1)
        #expect(try await again.taskData(largeServed.taskID).body == largeBody)
        #expect(try await second.terminate() == 0)
    }
}
