/// The operator console: the page at `/console` and the files it loads from `/console/{name}`, compiled
/// into the binary (`.embedInCode` in `Package.swift`). There is no build step: what `Assets/` holds is
/// what the browser gets.
///
/// The page signs in with a bearer token kept in the tab's `sessionStorage` and calls the same API as
/// any client. Everything it shows comes from the API, and URLs, headers and descriptions are written by
/// whoever created the task, so the page builds its DOM with `textContent` only, and the headers below
/// forbid inline script, framing and every origin but this one.
public enum ConsoleFiles {
    public struct File: Sendable {
        public let bytes: [UInt8]
        public let contentType: String
    }

    /// `/console`.
    public static let page = File(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")

    /// `/console/{name}`, or nil for a name that is not one of the console's files.
    public static func file(named name: String) -> File? { files[name] }

    private static let files: [String: File] = [
        "console.css": File(bytes: PackageResources.console_css, contentType: "text/css; charset=utf-8"),
        "app.js": script(PackageResources.app_js),
        "api.js": script(PackageResources.api_js),
        "dom.js": script(PackageResources.dom_js),
        "format.js": script(PackageResources.format_js),
        "events.js": script(PackageResources.events_js),
        "forms.js": script(PackageResources.forms_js),
        "sessions.js": script(PackageResources.sessions_js),
        "tasks.js": script(PackageResources.tasks_js),
        "task.js": script(PackageResources.task_js),
        "eventlog.js": script(PackageResources.eventlog_js),
        "overview.js": script(PackageResources.overview_js),
        "timeline.js": script(PackageResources.timeline_js),
        "admin.js": script(PackageResources.admin_js),
    ]

    private static func script(_ bytes: [UInt8]) -> File { File(bytes: bytes, contentType: "text/javascript; charset=utf-8") }

    /// Sent with every console file.
    /// - The policy allows scripts, styles and requests from this origin only: no inline script or style
    ///   element, no `eval`, nothing from a CDN. `form-action 'none'`: the sign-in form is never submitted
    ///   by the browser, so the token cannot end up in a URL even when the script fails to load.
    /// - `frame-ancestors 'none'` and `X-Frame-Options` (for older browsers): no page may frame the console.
    /// - `no-referrer`: a link the page shows (an origin's URL) never learns the console's address.
    public static let headers: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Cache-Control", "no-cache"),
    ]
}
