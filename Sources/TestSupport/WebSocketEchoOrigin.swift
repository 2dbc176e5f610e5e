import Foundation

/// A real WebSocket server on loopback (the `websockets` library), for tests of the service's WebSocket
/// client: it runs `Tests/Fixtures/websocket_echo.py` (its doc string says what each path does) with the
/// test venv's Python, where `make test-deps` installs `websockets`. The port comes from the OS.
///
/// A missing venv or package is an error, never a skipped test.
public final class WebSocketEchoOrigin: Sendable {
    public var port: Int { script.port }
    private let script: FixtureScript

    private init(script: FixtureScript) { self.script = script }

    deinit { stop() }

    /// `ws://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> String { "ws://127.0.0.1:\(port)\(path)" }

    public static func start() async throws -> WebSocketEchoOrigin {
        let venv = FixtureScript.testVenv()
        guard let python = venv.python else {
            throw NetworkLabError("no Python venv at \(venv.directory.path): `make test-deps` creates it with websockets")
        }
        return WebSocketEchoOrigin(
            script: try await FixtureScript.start("websocket_echo.py", arguments: [], python: python, startupTimeout: .seconds(20)))
    }

    public func stop() { script.stop() }
}
