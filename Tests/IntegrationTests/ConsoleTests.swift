import Foundation
import TestSupport
import Testing

/// The operator console (`/console`) in a real browser: Debian's Chromium, headless, driven by Playwright
/// (`Tests/Fixtures/console_browser.py`, one scenario per test) against the real binary, with the fixture
/// origin for transfers and, for the held webhook, a receiver the script runs itself. The script prepares
/// its data through the API and then acts and looks only through the page.
@Suite("Console in the browser")
struct ConsoleTests {
    /// Runs `scenario` against a fresh service; it fails with what the script printed (killed after 150 s).
    static func run(_ scenario: String, screenshot: String? = nil) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let arguments =
                [
                    scenario, "--base", api.base, "--token", Tokens.tenantA, "--admin-token", Tokens.admin, "--origin",
                    origin.url(""),
                ] + (screenshot.map { ["--screenshot", $0] } ?? [])
            let run = try await runFixtureScript("console_browser.py", arguments: arguments, timeout: .seconds(150))
            #expect(run.status == 0, "the console scenario \(scenario) failed:\n\(run.output)\(run.errors)")
        }
    }

    /// Where the progress scenario saves the README's picture: `URLSESSIOND_CONSOLE_SCREENSHOT` (`make
    /// console-screenshot` points it at `docs/console.png`), else under `.build`, so a test run leaves the
    /// committed picture alone.
    static var screenshotPath: String {
        if let configured = ProcessInfo.processInfo.environment["URLSESSIOND_CONSOLE_SCREENSHOT"], !configured.isEmpty {
            return configured
        }
        let build = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build")
        return build.appendingPathComponent("console.png").path
    }

    @Test(.timeLimit(.minutes(1)))
    func theConsoleIsServedFromTheBinaryWithAStrictPolicyAndNoToken() async throws {
        try await withTaskService { api, _ in
            let page = try await api.as(nil).get("/console")
            #expect(page.status == 200 && page.header("content-type") == "text/html; charset=utf-8")
            let policy = page.header("content-security-policy") ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe"))
            #expect(page.header("x-frame-options") == "DENY" && page.header("x-content-type-options") == "nosniff")
            #expect(page.text.contains(#"<script type="module" src="/console/app.js"></script>"#))
            // Every module the page loads, each with the same policy; they import one another by relative path.
            let files = [
                "app.js", "api.js", "dom.js", "format.js", "events.js", "forms.js", "sessions.js", "tasks.js", "task.js",
                "eventlog.js", "overview.js", "timeline.js", "admin.js",
            ]
            for file in files {
                let script = try await api.as(nil).get("/console/\(file)")
                #expect(script.status == 200 && script.header("content-type") == "text/javascript; charset=utf-8", "\(file)")
                #expect(script.header("content-security-policy") == policy)
                #expect(!script.text.contains("innerHTML") && !script.text.contains("eval("), "\(file) parses data as code")
                for imported in script.text.matches(of: /from '\.\/([a-z]+\.js)'/) {
                    #expect(files.contains(String(imported.1)), "\(file) imports \(imported.1), which is not served")
                }
            }
            #expect(try await api.as(nil).get("/console/console.css").header("content-type") == "text/css; charset=utf-8")
            expectProblem(try await api.as(nil).get("/console/secrets.js"), status: 404, slug: "not-found")
            expectProblem(try await api.as(nil).get("/console/..%2Fopenapi.yaml"), status: 404, slug: "not-found")
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func signingInShowsTheTenantsSessionsLiveAndAWrongTokenShowsThe401Problem() async throws {
        try await Self.run("sign-in")
    }

    @Test(.timeLimit(.minutes(3)))
    func aSlowDownloadsBarMovesToCompletionAndATaskIsCancelledFromThePage() async throws {
        try await Self.run("progress", screenshot: Self.screenshotPath)
    }

    @Test(.timeLimit(.minutes(3)))
    func aHeldWebhookQueueIsShownAndResentFromThePage() async throws {
        try await Self.run("held-webhook")
    }

    @Test(.timeLimit(.minutes(3)))
    func markupInURLsDescriptionsAndHeadersIsShownAsText() async throws {
        try await Self.run("escaping")
    }

    @Test(.timeLimit(.minutes(3)))
    func tenThousandTasksArePagedOnAPhoneWidthScreen() async throws {
        try await Self.run("phone")
    }

    @Test(.timeLimit(.minutes(3)))
    func anAdminSeesNetworkPathsNodesUsageAndFigures() async throws {
        try await Self.run("admin")
    }

    @Test(.timeLimit(.minutes(3)))
    func aSessionAndATaskAreCreatedFromThePageWithTheAPIsProblemsShownAndTheSharedSessionIsListedOnce() async throws {
        try await Self.run("create")
    }

    @Test(.timeLimit(.minutes(3)))
    func aTasksPageSavesItsFileFiltersProgressEventsAndShowsTheWholeLengthOfAResumedDownload() async throws {
        try await Self.run("task-page")
    }

    @Test(.timeLimit(.minutes(3)))
    func runningAndFailedTasksAreListedAcrossSessions() async throws {
        try await Self.run("overview")
    }
}
