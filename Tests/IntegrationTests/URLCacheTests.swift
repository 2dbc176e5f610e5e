import Foundation
import TestSupport
import Testing

/// The URL cache through transfers: what reaches the origin under each cache policy (counted at the
/// fixture origin), revalidation, `Vary`, `no-store`, invalidation, and the events and metrics of a hit.
@Suite("URL cache")
struct URLCacheTests {
    /// A `/cacheable/{name}` URL with these caching fields (percent-encoded).
    static func url(_ origin: FixtureOrigin, _ name: String, _ fields: [String: String] = [:]) -> String {
        let query = fields.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
            .joined(separator: "&")
        return origin.url("/cacheable/\(name)" + (query.isEmpty ? "" : "?" + query))
    }

    static func fetch(
        _ api: API, _ session: String, _ url: String, _ request: [String: Any] = [:], kind: String = "data"
    ) async throws -> [String: Any] {
        var request = request
        request["url"] = url
        return try await api.runTask(session: session, ["kind": kind, "request": request])
    }

    static func fetchType(_ api: API, _ task: [String: Any]) async throws -> String? {
        let metrics = try await api.taskMetrics(task.taskID)
        return ((metrics["transactionMetrics"] as? [[String: Any]])?.last)?["resourceFetchType"] as? String
    }

    @Test(.timeLimit(.minutes(1)))
    func aFreshResponseIsServedFromTheCacheWithTheSameEvents() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = Self.url(origin, "fresh", ["cc": "max-age=60", "etag": "\"v1\""])
            let first = try await Self.fetch(api, session, url)
            let second = try await Self.fetch(api, session, url)
            #expect(origin.requests(path: "/cacheable/fresh").count == 1)
            #expect(second.statusCode == 200 && second.errorCode == nil, "\(second)")
            #expect(try await api.taskData(second.taskID).body == (try await api.taskData(first.taskID)).body)
            #expect(try await Self.fetchType(api, first) == "networkLoad")
            #expect(try await Self.fetchType(api, second) == "localCache")
            let types = try await api.allEvents("/v1/sessions/\(session)/events").filter { $0["taskId"] as? String == second.taskID }
                .compactMap { $0["type"] as? String }
            for type in [
                "dataTask.didReceiveResponse", "dataTask.didReceiveData", "task.didFinishCollectingMetrics", "task.didCompleteWithError",
            ] {
                #expect(types.contains(type), "\(types)")
            }
            let download = try await Self.fetch(api, session, url, kind: "download")
            #expect(try await api.taskFile(download.taskID).body == (try await api.taskData(first.taskID)).body)
            #expect(origin.requests(path: "/cacheable/fresh").count == 1, "a download is served from the cache too")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func eachCachePolicyReachesTheOriginAsURLSessionDoes() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let fresh = Self.url(origin, "policy", ["cc": "max-age=60", "etag": "\"p1\""])
            _ = try await Self.fetch(api, session, fresh)
            let count = { origin.requests(path: "/cacheable/policy").count }

            _ = try await Self.fetch(api, session, fresh, ["cachePolicy": "useProtocolCachePolicy"])
            #expect(count() == 1)
            _ = try await Self.fetch(api, session, fresh, ["cachePolicy": "returnCacheDataElseLoad"])
            _ = try await Self.fetch(api, session, fresh, ["cachePolicy": "returnCacheDataDontLoad"])
            #expect(count() == 1)
            _ = try await Self.fetch(api, session, fresh, ["cachePolicy": "reloadIgnoringLocalCacheData"])
            #expect(count() == 2)
            #expect(origin.requests(path: "/cacheable/policy").last?.header("If-None-Match") == nil)
            _ = try await Self.fetch(api, session, fresh, ["cachePolicy": "reloadIgnoringLocalAndRemoteCacheData"])
            #expect(count() == 3)
            #expect(origin.requests(path: "/cacheable/policy").last?.header("Cache-Control") == "no-cache")
            let revalidated = try await Self.fetch(api, session, fresh, ["cachePolicy": "reloadRevalidatingCacheData"])
            #expect(count() == 4)
            #expect(origin.requests(path: "/cacheable/policy").last?.header("If-None-Match") == "\"p1\"")
            #expect(revalidated.statusCode == 200, "a 304 answers from the cache: \(revalidated)")

            let missing = Self.url(origin, "never-stored", ["cc": "max-age=60"])
            let failed = try await Self.fetch(api, session, missing, ["cachePolicy": "returnCacheDataDontLoad"])
            #expect(failed.errorCode == -2000, "\(failed)")
            #expect(origin.requests(path: "/cacheable/never-stored").isEmpty)
            _ = try await Self.fetch(api, session, missing, ["cachePolicy": "returnCacheDataElseLoad"])
            #expect(origin.requests(path: "/cacheable/never-stored").count == 1)

            let stale = Self.url(origin, "stale", ["cc": "max-age=0"])
            _ = try await Self.fetch(api, session, stale)
            _ = try await Self.fetch(api, session, stale, ["cachePolicy": "returnCacheDataElseLoad"])
            #expect(origin.requests(path: "/cacheable/stale").count == 1, "stale data is returned without a load")
            _ = try await Self.fetch(api, session, stale)
            #expect(origin.requests(path: "/cacheable/stale").count == 2, "stale, no validator: loaded again")
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [["etag": "\"e1\""], ["lastModified": "Wed, 21 Oct 2015 07:28:00 GMT"]])
    func aStaleResponseIsRevalidatedAndA304ServedFromTheCache(validator: [String: String]) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = Self.url(origin, "revalidate", validator.merging(["cc": "no-cache"]) { $1 })
            let first = try await Self.fetch(api, session, url)
            let second = try await Self.fetch(api, session, url)
            let requests = origin.requests(path: "/cacheable/revalidate")
            #expect(requests.count == 2)
            let condition = validator["etag"] != nil ? "If-None-Match" : "If-Modified-Since"
            #expect(requests.last?.header(condition) == validator.values.first)
            #expect(second.statusCode == 200, "\(second)")
            #expect(try await api.taskData(second.taskID).body == (try await api.taskData(first.taskID)).body)
            let metrics = try await api.taskMetrics(second.taskID)
            let transaction = try #require((metrics["transactionMetrics"] as? [[String: Any]])?.last)
            #expect(transaction["resourceFetchType"] as? String == "networkLoad")
            #expect(int((transaction["response"] as? [String: Any])?["statusCode"]) == 304, "\(transaction)")
        }
    }

    /// RFC 5861 §3 `stale-while-revalidate`: a stale response within its window is served from the cache at once,
    /// and the cache revalidates it in the background: the origin gets a conditional request, and its 304 refreshes
    /// the stored response (which takes the 304's `X-Sent-At`).
    @Test(.timeLimit(.minutes(1)))
    func aStaleResponseWithinStaleWhileRevalidateIsServedAndRevalidatedInTheBackground() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = Self.url(origin, "swr", ["cc": "max-age=1, stale-while-revalidate=600", "etag": "\"s1\"", "stamp": "1"])
            let first = try await Self.fetch(api, session, url)
            let stamp = try #require(first.responseHeader("X-Sent-At"))
            try await Task.sleep(for: .milliseconds(1100))  // stale: older than max-age

            let second = try await Self.fetch(api, session, url)
            #expect(second.statusCode == 200 && second.errorCode == nil, "\(second)")
            #expect(try await Self.fetchType(api, second) == "localCache", "served at once from the cache")
            #expect(try await api.taskData(second.taskID).body == (try await api.taskData(first.taskID)).body)
            try await eventually(timeout: 10, interval: 0.05) { origin.requests(path: "/cacheable/swr").count == 2 }
            #expect(origin.requests(path: "/cacheable/swr").last?.header("If-None-Match") == "\"s1\"")
            let entryPath = "/v1/sessions/\(session)/cache/entry?url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            try await eventually(timeout: 10, interval: 0.05) {
                let entry = try await api.get(entryPath).json()
                let fields = (entry["response"] as? [String: Any])?["allHeaderFields"] as? [String: String]
                let refreshed = fields?.first { $0.key.lowercased() == "x-sent-at" }?.value
                return refreshed != nil && refreshed != stamp
            }
            let events = try await api.allEvents("/v1/tasks/\(second.taskID)/events").compactMap(\.eventType)
            #expect(events.filter { $0 == "task.didCompleteWithError" }.count == 1, "the revalidation is no task's: \(events)")
        }
    }

    /// RFC 9111 §3.4: a range request is answered from a fresh stored whole response, as a 206 with
    /// `Content-Range`, without reaching the origin; a request with its own condition (`If-Range`) goes there.
    @Test(.timeLimit(.minutes(1)))
    func aRangeIsCutFromAFreshStoredWholeResponse() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = Self.url(origin, "ranged", ["cc": "max-age=600", "etag": "\"r1\"", "size": "1000"])
            let whole = try await Self.fetch(api, session, url)
            #expect(whole.statusCode == 200)
            let bytes = FixtureOrigin.bytes(count: 1000)
            for (range, slice, contentRange) in [
                ("bytes=100-199", 100..<200, "bytes 100-199/1000"), ("bytes=-10", 990..<1000, "bytes 990-999/1000"),
                ("bytes=900-", 900..<1000, "bytes 900-999/1000"),
            ] {
                let part = try await Self.fetch(api, session, url, ["allHTTPHeaderFields": ["Range": range]])
                #expect(part.statusCode == 206, "\(range): \(part)")
                #expect(part.responseHeader("Content-Range") == contentRange)
                #expect(part.responseHeader("Content-Length") == String(slice.count))
                #expect(try await api.taskData(part.taskID).body == Array(bytes[slice]))
                #expect(try await Self.fetchType(api, part) == "localCache")
            }
            #expect(origin.requests(path: "/cacheable/ranged").count == 1, "every range came from the cache")
            let conditional = try await Self.fetch(
                api, session, url, ["allHTTPHeaderFields": ["Range": "bytes=0-9", "If-Range": "\"r1\""]])
            #expect(conditional.errorCode == nil, "\(conditional)")
            #expect(origin.requests(path: "/cacheable/ranged").count == 2, "If-Range goes to the origin")
        }
    }

    /// RFC 9111 §4: a response served from the cache without validation carries `Age`, its current_age (§4.2.3): here
    /// the apparent age of a `Date` 100 s before it arrived, plus the moments it spent stored.
    @Test(.timeLimit(.minutes(1)))
    func aResponseServedFromTheCacheCarriesItsAge() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = formatter.string(from: Date().addingTimeInterval(-100))
            let url = Self.url(origin, "aged", ["cc": "max-age=600", "date": date])
            let first = try await Self.fetch(api, session, url)
            #expect(first.responseHeader("Age") == nil, "the origin's own response: \(first)")
            let second = try await Self.fetch(api, session, url)
            #expect(try await Self.fetchType(api, second) == "localCache")
            let age = try #require(second.responseHeader("Age").flatMap { Int($0) }, "\(second)")
            #expect((100...110).contains(age), "\(second)")
            #expect(second.responseHeader("Date") == date, "Date stays as stored")
        }
    }

    /// RFC 9111 §5.3: an `Expires` that is not an HTTP-date (here in UTC, which RFC 9110 §5.6.7 does not allow) means
    /// already expired, so the stored response is not reused without asking the origin.
    @Test(.timeLimit(.minutes(1)))
    func anInvalidExpiresIsAlreadyExpired() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let invalid = Self.url(origin, "utc", ["expires": "Thu, 18 Aug 2050 02:01:18 UTC"])
            _ = try await Self.fetch(api, session, invalid)
            _ = try await Self.fetch(api, session, invalid)
            #expect(origin.requests(path: "/cacheable/utc").count == 2)
            let valid = Self.url(origin, "gmt", ["expires": "Thu, 18 Aug 2050 02:01:18 GMT"])
            _ = try await Self.fetch(api, session, valid)
            _ = try await Self.fetch(api, session, valid)
            #expect(origin.requests(path: "/cacheable/gmt").count == 1)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func varySelectsTheStoredVariant() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = Self.url(origin, "vary", ["cc": "max-age=60", "vary": "Accept-Language"])
            let english = ["allHTTPHeaderFields": ["Accept-Language": "en"]]
            let french = ["allHTTPHeaderFields": ["Accept-Language": "fr"]]
            _ = try await Self.fetch(api, session, url, english)
            _ = try await Self.fetch(api, session, url, english)
            #expect(origin.requests(path: "/cacheable/vary").count == 1)
            let answer = try await Self.fetch(api, session, url, french)
            #expect(origin.requests(path: "/cacheable/vary").count == 2)
            let varied = try await api.taskData(answer.taskID).json()["varied"] as? [String: String]
            #expect(varied == ["accept-language": "fr"])
            _ = try await Self.fetch(api, session, url, french)
            #expect(origin.requests(path: "/cacheable/vary").count == 2)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func noStoreIsNeverKeptAndAnUnsafeMethodInvalidates() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let unstored = Self.url(origin, "no-store", ["cc": "no-store, max-age=60"])
            _ = try await Self.fetch(api, session, unstored)
            _ = try await Self.fetch(api, session, unstored)
            #expect(origin.requests(path: "/cacheable/no-store").count == 2)

            let url = Self.url(origin, "posted", ["cc": "max-age=60"])
            _ = try await Self.fetch(api, session, url)
            _ = try await Self.fetch(api, session, url)
            #expect(origin.requests(path: "/cacheable/posted").count == 1)
            _ = try await Self.fetch(api, session, url, ["httpMethod": "POST", "httpBody": ["text": "x"]])
            _ = try await Self.fetch(api, session, url)
            #expect(origin.requests(path: "/cacheable/posted").count == 3, "the POST's success removed the stored GET")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFullCacheEvictsTheLeastRecentlyUsedAndRefusesResponsesOverFivePercent() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            // 5% of 100,000: responses up to 5,000 bytes (head included) are stored.
            let session = try await api.makeSession(["urlCache": ["memoryCapacity": 0, "diskCapacity": 100_000]])
            for index in 0..<30 {
                _ = try await Self.fetch(api, session, Self.url(origin, "item\(index)", ["cc": "max-age=60", "size": "4000"]))
            }
            let usage = try await api.get("/v1/sessions/\(session)/cache").json()
            #expect(usage["storage"] as? String == "private")
            let disk = try #require(int(usage["currentDiskUsage"]))
            #expect(disk <= 100_000 && disk > 80_000, "\(usage)")
            let count = try #require(int(usage["entryCount"]))
            #expect(count < 30 && count >= 20, "\(usage)")
            _ = try await Self.fetch(api, session, Self.url(origin, "item29", ["cc": "max-age=60", "size": "4000"]))
            #expect(origin.requests(path: "/cacheable/item29").count == 1, "the newest stays")
            _ = try await Self.fetch(api, session, Self.url(origin, "item0", ["cc": "max-age=60", "size": "4000"]))
            #expect(origin.requests(path: "/cacheable/item0").count == 2, "the oldest went")

            let big = Self.url(origin, "big", ["cc": "max-age=60", "size": "6000"])
            _ = try await Self.fetch(api, session, big)
            _ = try await Self.fetch(api, session, big)
            #expect(origin.requests(path: "/cacheable/big").count == 2)
        }
    }
}

/// The cache against a standard server: nginx's own validators and dates.
@Suite("URL cache against nginx")
struct URLCacheNginxTests {
    @Test(.timeLimit(.minutes(1)))
    func nginxRevalidatesWithItsETagAndAChangedFileIsLoadedAgain() async throws {
        let nginx = try await NginxOrigin.start(tls: false)
        defer { nginx.stop() }
        try nginx.write("page", Array("first".utf8))
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = nginx.url("/page")
            // Always revalidated: a file modified a moment ago would be heuristically fresh for a tenth of that moment.
            let revalidating = ["cachePolicy": "reloadRevalidatingCacheData"]
            _ = try await URLCacheTests.fetch(api, session, url)
            let revalidated = try await URLCacheTests.fetch(api, session, url, revalidating)
            #expect(try await api.taskData(revalidated.taskID).text == "first")
            let metrics = try await api.taskMetrics(revalidated.taskID)
            let transaction = try #require((metrics["transactionMetrics"] as? [[String: Any]])?.last)
            #expect(int((transaction["response"] as? [String: Any])?["statusCode"]) == 304, "\(transaction)")
            #expect(revalidated.statusCode == 200)

            try nginx.write("page", Array("second, longer".utf8))
            let changed = try await URLCacheTests.fetch(api, session, url, revalidating)
            #expect(try await api.taskData(changed.taskID).text == "second, longer")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFileUnchangedForDaysIsHeuristicallyFresh() async throws {
        let nginx = try await NginxOrigin.start(tls: false)
        defer { nginx.stop() }
        let tenDaysAgo = Date().addingTimeInterval(-10 * 86_400)
        try nginx.write("old", Array("old".utf8), modified: tenDaysAgo)  // 10% of 10 days: fresh for a day
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            _ = try await URLCacheTests.fetch(api, session, nginx.url("/old"))
            try nginx.write("old", Array("new".utf8), modified: tenDaysAgo)
            let second = try await URLCacheTests.fetch(api, session, nginx.url("/old"))
            #expect(try await URLCacheTests.fetchType(api, second) == "localCache")
            #expect(try await api.taskData(second.taskID).text == "old")
        }
    }
}
