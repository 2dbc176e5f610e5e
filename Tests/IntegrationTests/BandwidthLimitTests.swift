import Foundation
import TestSupport
import Testing

/// Bandwidth limits (`rateLimit`) through the real binary, measured where the sender sees them: the origin
/// (`RateOrigin`) records what the client acknowledged over time (TCP_INFO), so a limit that only slowed the
/// reader while the kernel buffered ahead would fail here. Each test watches a transfer for about ten
/// seconds; they run in parallel, each with its own service and origin.
@Suite("Bandwidth limits")
struct BandwidthLimitTests {
    /// Seconds a transfer runs before it is measured (buffers fill, shares settle).
    static let warmUp = 2.0

    @Test(.timeLimit(.minutes(1)))
    func aTaskLimitHoldsAtTheOriginAndAPatchChangesItWhileItRuns() async throws {
        let origin = try await RateOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let created = try await api.createTask(
                session: session,
                [
                    "kind": "download", "request": ["url": "\(origin.url)/bytes/60000000?tag=task"],
                    "rateLimit": ["receiveBytesPerSecond": 1_000_000], "resume": true,
                ])
            #expect(created.limit == ["receiveBytesPerSecond": 1_000_000], "\(created)")
            let start = try await Self.begun(origin, tag: "task")
            try await Self.sleep(until: start + Self.warmUp + 10)
            let rate = try await origin.rate(tag: "task", from: start + Self.warmUp, seconds: 10)
            Self.report("task limit 1 MB/s, 10 s", rate)
            #expect(abs(rate - 1_000_000) <= 100_000, "1 MB/s ±10 % over 10 s at the origin: \(Int(rate)) B/s")
            let running = try await api.task(created.taskID)
            #expect(running.limit == ["receiveBytesPerSecond": 1_000_000], "the limit in force: \(running)")
            #expect(running.throughput.map { abs($0 - 1_000_000) <= 200_000 } == true, "its throughput: \(running)")

            try await Self.patchReceiveLimit(of: created.taskID, through: api, to: 2_500_000, origin: origin, tag: "task")

            expectProblem(
                try await Self.patch(api, created.taskID, #"{"rateLimit": {"receiveBytesPerSecond": 0}}"#), status: 422,
                slug: "invalid-value", field: "rateLimit.receiveBytesPerSecond")
            expectProblem(try await Self.patch(api, created.taskID, "{}"), status: 422, slug: "missing-field", field: "rateLimit")
            expectProblem(
                try await Self.patch(api.as(Tokens.tenantB), created.taskID, #"{"rateLimit": null}"#), status: 404, slug: "not-found")
            #expect(try await api.taskAction(created.taskID, "cancel").status == 200)
            _ = try await api.completedTask(created.taskID, within: 10)
            expectProblem(try await Self.patch(api, created.taskID, #"{"rateLimit": null}"#), status: 409, slug: "conflict")
        }
    }

    /// A patched limit is the task's: after a kill -9 the next service runs the task again under it.
    @Test(.timeLimit(.minutes(1)))
    func aPatchedLimitSurvivesARestart() async throws {
        let origin = try await RateOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-rate-limit-restart")
        defer { directory.remove() }
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let session = try await api.makeSession(["kind": "background", "identifier": "rate.limit.restart"])
        let id = try await api.createTask(
            session: session,
            [
                "kind": "download", "request": ["url": "\(origin.url)/bytes/60000000?tag=restart"],
                "rateLimit": ["receiveBytesPerSecond": 300_000], "resume": true,
            ]
        ).taskID
        _ = try await Self.begun(origin, tag: "restart")
        let patched = try await Self.patch(api, id, #"{"rateLimit": {"receiveBytesPerSecond": 1200000}}"#)
        #expect(patched.status == 200, "\(patched.text)")
        await first.kill9()

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        var restarted: Double?
        for _ in 0..<200 where restarted == nil {
            let requests = try await origin.measurements(tag: "restart")
            if requests.count >= 2 { restarted = requests[1].samples.first?.time } else { try await Task.sleep(for: .milliseconds(50)) }
        }
        let start = try #require(restarted, "the task ran again after the restart")
        try await Self.sleep(until: start + Self.warmUp + 3)
        let rate =
            try await origin.measurements(tag: "restart")[1].bytes(at: start + Self.warmUp + 3)
            - (try await origin.measurements(tag: "restart")[1].bytes(at: start + Self.warmUp))
        Self.report("patched to 1.2 MB/s, after a restart, 3 s", rate / 3)
        #expect(abs(rate / 3 - 1_200_000) <= 180_000, "the patched 1.2 MB/s ±15 % after the restart: \(Int(rate / 3)) B/s")
        #expect(try await again.task(id).limit == ["receiveBytesPerSecond": 1_200_000])
        _ = try await again.taskAction(id, "cancel")
        _ = try await second.terminate()
    }

    @Test(.timeLimit(.minutes(1)))
    func aSessionLimitIsSharedFairlyByItsTransfers() async throws {
        let origin = try await RateOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["rateLimit": ["receiveBytesPerSecond": 4_000_000]])
            var ids: [String] = []
            for index in 0..<4 {
                let url = "\(origin.url)/bytes/60000000?tag=share\(index)"
                ids.append(
                    try await api.createTask(session: session, ["kind": "download", "request": ["url": url], "resume": true]).taskID)
            }
            var latest = 0.0
            for index in 0..<4 { latest = max(latest, try await Self.begun(origin, tag: "share\(index)")) }
            try await Self.sleep(until: latest + Self.warmUp + 10)
            for index in 0..<4 {
                let rate = try await origin.rate(tag: "share\(index)", from: latest + Self.warmUp, seconds: 10)
                Self.report("session limit 4 MB/s, transfer \(index) of 4, 10 s", rate)
                #expect(abs(rate - 1_000_000) <= 150_000, "transfer \(index): 1 MB/s ±15 %: \(Int(rate)) B/s")
            }
            for id in ids { _ = try await api.taskAction(id, "cancel") }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTimetableChangeTakesEffectWithinTwoSeconds() async throws {
        let origin = try await RateOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            // Two periods covering the day, in UTC: 500 kB/s until `boundary` (5 s from now), 2 MB/s after.
            let boundary = (Date().timeIntervalSince1970 + 5).rounded(.up)
            let schedule: [[String: Any]] = [
                ["from": Self.timeOfDay(boundary - 3600), "to": Self.timeOfDay(boundary), "receiveBytesPerSecond": 500_000],
                ["from": Self.timeOfDay(boundary), "to": Self.timeOfDay(boundary - 3600), "receiveBytesPerSecond": 2_000_000],
            ]
            let created = try await api.createTask(
                session: session,
                [
                    "kind": "download", "request": ["url": "\(origin.url)/bytes/60000000?tag=timetable"],
                    "rateLimit": ["schedule": schedule, "timeZone": "UTC"], "resume": true,
                ])
            let start = try await Self.begun(origin, tag: "timetable")
            try #require(start + Self.warmUp < boundary - 1, "the service started the transfer too late to see the first period")
            try await Self.sleep(until: boundary + 4.5)
            let before = try await origin.rate(tag: "timetable", from: start + Self.warmUp, seconds: boundary - start - Self.warmUp)
            #expect(abs(before - 500_000) <= 75_000, "500 kB/s ±15 % before the change: \(Int(before)) B/s")
            let after = try await origin.rate(tag: "timetable", from: boundary + 2, seconds: 2.5)
            Self.report("timetable 500 kB/s before the change", before)
            Self.report("timetable 2 MB/s, 2-4.5 s after the change", after)
            #expect(abs(after - 2_000_000) <= 300_000, "2 MB/s ±15 % from 2 s after the change: \(Int(after)) B/s")
            #expect(try await api.task(created.taskID).limit == ["receiveBytesPerSecond": 2_000_000])
            _ = try await api.taskAction(created.taskID, "cancel")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSegmentedDownloadStaysWithinItsLimitInTotal() async throws {
        let origin = try await RateOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let created = try await api.createTask(
                session: session,
                [
                    "kind": "download", "request": ["url": "\(origin.url)/bytes/80000000?tag=segmented"],
                    "segments": ["max": 4, "minSize": 1_048_576], "rateLimit": ["receiveBytesPerSecond": 2_000_000],
                    "resume": true,
                ])
            let start = try await Self.begun(origin, tag: "segmented")
            try await Self.sleep(until: start + Self.warmUp + 10)
            let rate = try await origin.rate(tag: "segmented", from: start + Self.warmUp, seconds: 10)
            Self.report("segmented (4 connections) under 2 MB/s, 10 s", rate)
            #expect(abs(rate - 2_000_000) <= 200_000, "2 MB/s ±10 % over all its connections: \(Int(rate)) B/s")
            let requests = try await origin.measurements(tag: "segmented")
            #expect(requests.filter { $0.range != nil }.count >= 2, "parts were fetched: \(requests.map(\.range))")
            _ = try await api.taskAction(created.taskID, "cancel")
        }
    }

    /// The service's limit (an operator setting) over a task with a lower limit of its own and one with
    /// none: the lowest limit holds for the first, and max-min fairness gives the second what it leaves.
    @Test(.timeLimit(.minutes(1)))
    func theServiceLimitIsDividedMaxMinFairly() async throws {
        let origin = try await RateOrigin.start()
        defer { origin.stop() }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_RATE_LIMIT": #"{"receiveBytesPerSecond": 3000000}"#]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await api.makeSession()
            let slow = try await api.createTask(
                session: session,
                [
                    "kind": "download", "request": ["url": "\(origin.url)/bytes/60000000?tag=own"],
                    "rateLimit": ["receiveBytesPerSecond": 500_000], "resume": true,
                ])
            let other = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": "\(origin.url)/bytes/60000000?tag=rest"], "resume": true])
            let latest = max(try await Self.begun(origin, tag: "own"), try await Self.begun(origin, tag: "rest"))
            try await Self.sleep(until: latest + Self.warmUp + 8)
            let own = try await origin.rate(tag: "own", from: latest + Self.warmUp, seconds: 8)
            let rest = try await origin.rate(tag: "rest", from: latest + Self.warmUp, seconds: 8)
            Self.report("service 3 MB/s: task with its own 500 kB/s, 8 s", own)
            Self.report("service 3 MB/s: unlimited task beside it, 8 s", rest)
            #expect(abs(own - 500_000) <= 75_000, "its own 500 kB/s: \(Int(own)) B/s")
            #expect(abs(rest - 2_500_000) <= 375_000, "what the service's 3 MB/s leaves: \(Int(rest)) B/s")
            #expect(try await api.task(other.taskID).limit == ["receiveBytesPerSecond": 3_000_000], "the service's limit is in force")
            let metrics = try await api.get("/metrics").text
            #expect(Self.sample(metrics, #"urlsessiond_rate_limit_bytes_per_second{level="service",direction="receive"}"#) == 3_000_000)
            #expect(Self.sample(metrics, #"urlsessiond_rate_limited_transfers{direction="receive"}"#) == 2, "\(metrics)")
            let throughput = Self.sample(metrics, #"urlsessiond_rate_limited_throughput_bytes_per_second{direction="receive"}"#)
            #expect(
                throughput.map { abs($0 - 3_000_000) <= 600_000 } == true, "the limited transfers' rate: \(String(describing: throughput))")
            for id in [slow.taskID, other.taskID] { _ = try await api.taskAction(id, "cancel") }
        }
    }

    /// Each tenant gets the tenant limit (an operator setting), shared by its own transfers only.
    @Test(.timeLimit(.minutes(1)))
    func eachTenantGetsTheTenantLimit() async throws {
        let origin = try await RateOrigin.start()
        defer { origin.stop() }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_TENANT_RATE_LIMIT": #"{"receiveBytesPerSecond": 2000000}"#]) {
            $1
        }
        try await withTaskService(environment: environment) { api, _ in
            var ids: [(API, String)] = []
            for (tenant, tags) in [(api, ["a0", "a1"]), (api.as(Tokens.tenantB), ["b0"])] {
                let session = try await tenant.makeSession()
                for tag in tags {
                    let url = "\(origin.url)/bytes/60000000?tag=\(tag)"
                    ids.append(
                        (
                            tenant,
                            try await tenant.createTask(session: session, ["kind": "download", "request": ["url": url], "resume": true])
                                .taskID
                        ))
                }
            }
            var latest = 0.0
            for tag in ["a0", "a1", "b0"] { latest = max(latest, try await Self.begun(origin, tag: tag)) }
            try await Self.sleep(until: latest + Self.warmUp + 8)
            for (tag, expected) in [("a0", 1_000_000.0), ("a1", 1_000_000), ("b0", 2_000_000)] {
                let rate = try await origin.rate(tag: tag, from: latest + Self.warmUp, seconds: 8)
                Self.report("tenant limit 2 MB/s: \(tag), 8 s", rate)
                #expect(abs(rate - expected) <= expected * 0.15, "\(tag): \(Int(expected)) B/s ±15 %: \(Int(rate)) B/s")
            }
            for (tenant, id) in ids { _ = try await tenant.taskAction(id, "cancel") }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anUploadIsHeldToItsSendLimit() async throws {
        let origin = try await RateOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let blob = try await api.makeBlob([UInt8](repeating: 7, count: 12_000_000))
            let created = try await api.createTask(
                session: session,
                [
                    "kind": "upload", "request": ["url": "\(origin.url)/upload?tag=upload", "httpMethod": "PUT"],
                    "uploadSource": ["blob": blob], "rateLimit": ["sendBytesPerSecond": 1_000_000], "resume": true,
                ])
            let start = try await Self.begun(origin, tag: "upload")
            try await Self.sleep(until: start + Self.warmUp + 6)
            let rate = try await origin.rate(tag: "upload", from: start + Self.warmUp, seconds: 6)
            Self.report("upload send limit 1 MB/s, 6 s", rate)
            #expect(abs(rate - 1_000_000) <= 100_000, "1 MB/s ±10 % received by the origin: \(Int(rate)) B/s")
            _ = try await api.taskAction(created.taskID, "cancel")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func invalidLimitsNameTheirField() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = ["url": "http://127.0.0.1:9/bytes/10"]
            let cases: [([String: Any], Int, String, String)] = [
                (["receiveBytesPerSecond": -1], 422, "invalid-value", "rateLimit.receiveBytesPerSecond"),
                (["receiveBytesPerSecond": "fast"], 400, "type-mismatch", "rateLimit.receiveBytesPerSecond"),
                (["schedule": []], 422, "invalid-value", "rateLimit.schedule"),
                (["schedule": [["from": "8:00", "to": "18:00"]]], 422, "invalid-value", "rateLimit.schedule[0].from"),
                (["schedule": [["from": "08:00", "to": "08:00"]]], 422, "invalid-value", "rateLimit.schedule[0].to"),
                (["schedule": [["from": "08:00"]]], 422, "missing-field", "rateLimit.schedule[0].to"),
                (
                    ["schedule": [["from": "08:00", "to": "18:00"], ["from": "17:00", "to": "09:00"]]], 422, "invalid-value",
                    "rateLimit.schedule[1]"
                ),
                (
                    ["schedule": [["from": "08:00", "to": "18:00"]], "timeZone": "Mars/Olympus"], 422, "invalid-value", "rateLimit.timeZone"
                ),
                (
                    ["schedule": [["from": "08:00", "to": "18:00"]], "sendBytesPerSecond": 5], 422, "invalid-value",
                    "rateLimit.sendBytesPerSecond"
                ),
                (["receiveBytesPerSecond": 5, "per": "second"], 400, "unknown-field", "rateLimit.per"),
            ]
            for (limit, status, slug, field) in cases {
                let body: [String: Any] = ["kind": "download", "request": url, "rateLimit": limit]
                expectProblem(try await api.postTask(session: session, body), status: status, slug: slug, field: field)
            }
            let refused = try await api.post("/v1/sessions", json: #"{"configuration": {"rateLimit": {"sendBytesPerSecond": 0}}}"#)
            expectProblem(refused, status: 422, slug: "invalid-value", field: "configuration.rateLimit.sendBytesPerSecond")
            // "HH:MM:SS" and a period wrapping midnight are accepted, and shown as given on a task not running.
            let limit: [String: Any] = [
                "schedule": [["from": "22:00:30", "to": "06:00", "sendBytesPerSecond": 1000]], "timeZone": "Europe/Paris",
            ]
            let task = try await api.createTask(session: session, ["kind": "data", "request": url, "rateLimit": limit])
            #expect(try canonical(task["rateLimit"] as Any) == (try canonical(limit)), "\(task)")
            let stream = try await api.postTask(
                session: session, ["kind": "stream", "hostName": "127.0.0.1", "port": 9, "rateLimit": limit])
            expectProblem(stream, status: 422, slug: "invalid-value", field: "rateLimit")
        }
    }

    /// An operator's limit that does not parse, or is not a valid `rateLimit`, stops the service at start,
    /// naming the setting and field; the flags are read too.
    @Test(.timeLimit(.minutes(1)))
    func badOperatorLimitsStopTheServiceAtStart() async throws {
        for (name, value, field) in [
            ("URLSESSIOND_RATE_LIMIT", #"{"receiveBytesPerSecond": 0}"#, "URLSESSIOND_RATE_LIMIT.receiveBytesPerSecond"),
            ("URLSESSIOND_TENANT_RATE_LIMIT", "1MB", "URLSESSIOND_TENANT_RATE_LIMIT"),
            (
                "URLSESSIOND_TENANT_RATE_LIMIT", #"{"schedule": [{"from": "08:00", "to": "7pm"}]}"#,
                "URLSESSIOND_TENANT_RATE_LIMIT.schedule[0].to"
            ),
        ] {
            let log = try await expectStartupRefusal(environment: Tokens.environment.merging([name: value]) { $1 })
            #expect(log.contains(field), "\(name)=\(value): \(log)")
        }
        let log = try await expectStartupRefusal(environment: Tokens.environment, arguments: ["--rate-limit", #"{"per": 1}"#])
        #expect(log.contains("URLSESSIOND_RATE_LIMIT.per"), "\(log)")
    }

    // MARK: Helpers

    /// When the origin began answering the request tagged `tag` (polled for up to 10 s).
    static func begun(_ origin: RateOrigin, tag: String) async throws -> Double {
        for _ in 0..<200 {
            if let start = try await origin.firstStart(tag: tag) { return start }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw NotMeasured(tag: tag)
    }

    /// The value of the Prometheus sample `series` (name and labels as exposed) in `exposition`.
    static func sample(_ exposition: String, _ series: String) -> Double? {
        exposition.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Prints a measured figure (BENCHMARKS.md "Bandwidth policy" quotes them).
    static func report(_ what: String, _ rate: Double) {
        print("bandwidth: \(what): \(Int(rate)) B/s at the origin")
    }

    /// Sleeps until `time` (seconds since the epoch).
    static func sleep(until time: Double) async throws {
        let left = time - Date().timeIntervalSince1970
        if left > 0 { try await Task.sleep(for: .milliseconds(Int(left * 1000))) }
    }

    /// `HH:MM:SS` of `time` (seconds since the epoch) in UTC.
    static func timeOfDay(_ time: Double) -> String {
        let second = Int(time.rounded(.down)) % 86_400
        return String(format: "%02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60)
    }

    /// PATCHes the running task's receive limit to `bytesPerSecond` through `api`, then expects it at the
    /// origin 1.5–4.5 s later (±15 %) from the same transfer, not started again.
    static func patchReceiveLimit(
        of id: String, through api: API, to bytesPerSecond: Int, origin: RateOrigin, tag: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let patched = try await patch(api, id, #"{"rateLimit": {"receiveBytesPerSecond": \#(bytesPerSecond)}}"#)
        #expect(patched.status == 200, "\(patched.text)", sourceLocation: sourceLocation)
        #expect(try patched.json().limit == ["receiveBytesPerSecond": bytesPerSecond], "\(patched.text)", sourceLocation: sourceLocation)
        let changed = Date().timeIntervalSince1970
        try await sleep(until: changed + 4.5)
        let rate = try await origin.rate(tag: tag, from: changed + 1.5, seconds: 3)
        report("PATCH to \(bytesPerSecond) B/s, 1.5-4.5 s after", rate)
        #expect(
            abs(rate - Double(bytesPerSecond)) <= Double(bytesPerSecond) * 0.15,
            "\(bytesPerSecond) B/s ±15 % after the PATCH: \(Int(rate)) B/s", sourceLocation: sourceLocation)
        #expect(try await origin.measurements(tag: tag).count == 1, "the same transfer, not started again", sourceLocation: sourceLocation)
    }

    static func patch(_ api: API, _ id: String, _ json: String) async throws -> TestHTTPResponse {
        try await api.client.send(.patch(api.base + "/v1/tasks/\(id)", json: json, token: api.token))
    }
}

/// No request with this tag reached the origin in time.
struct NotMeasured: Error { var tag: String }

extension [String: Any] {
    /// The task's `rateLimit` as numbers by name (nil when null or absent).
    var limit: [String: Int]? { (self["rateLimit"] as? [String: Any])?.compactMapValues { int($0) } }
}
