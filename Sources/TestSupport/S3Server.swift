import Foundation

/// An S3-compatible object store on loopback: `Tests/Fixtures/s3_server.py`, moto's server from the test
/// venv (`moto[server]`, which `make test-deps` installs), with one bucket and one access key whose
/// signatures it checks on every request (see the script for how).
///
/// A missing venv or moto is an error, never a skipped test: the object store would silently go untested.
public final class S3Server: Sendable {
    public let bucket: String
    /// `http://127.0.0.1:<port>`
    public let endpoint: String
    public let accessKeyId: String
    public let secretAccessKey: String
    private let script: FixtureScript
    private let directory: TemporaryDirectory

    private init(bucket: String, script: FixtureScript, directory: TemporaryDirectory, accessKeyId: String, secretAccessKey: String) {
        self.bucket = bucket
        self.endpoint = "http://127.0.0.1:\(script.port)"
        self.script = script
        self.directory = directory
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
    }

    deinit { stop() }

    /// Starts the server with `bucket` created, and waits (up to `startupTimeout`: moto's imports take
    /// seconds on a busy machine) until it listens.
    public static func start(bucket: String = "urlsessiond-test", startupTimeout: Duration = .seconds(60)) async throws -> S3Server {
        let venv = FixtureScript.testVenv()
        guard let python = venv.python else {
            throw NetworkLabError(
                "no Python venv at \(venv.directory.path) (URLSESSIOND_TEST_VENV, else the package's .venv): "
                    + "`make test-deps` creates it with moto[server]")
        }
        let directory = try TemporaryDirectory.make(prefix: "s3-server")
        let credentials = directory.appending("credentials")
        do {
            let script = try await FixtureScript.start(
                "s3_server.py", arguments: ["--bucket", bucket, "--credentials-file", credentials.path], python: python,
                startupTimeout: startupTimeout)
            // Written before the port file, so it is complete by now.
            let lines = try String(contentsOf: credentials, encoding: .utf8).split(separator: "\n").map(String.init)
            guard lines.count == 2 else { throw NetworkLabError("s3_server.py wrote no credentials") }
            return S3Server(bucket: bucket, script: script, directory: directory, accessKeyId: lines[0], secretAccessKey: lines[1])
        } catch {
            directory.remove()
            throw error
        }
    }

    /// `URLSESSIOND_OBJECT_STORE_URL` for this server's bucket, with `prefix` before every key.
    public func objectStoreURL(prefix: String = "") -> String {
        "s3://\(bucket)\(prefix.isEmpty ? "" : "/" + prefix)?endpoint=\(endpoint)&region=us-east-1"
    }

    /// The environment a service needs to use this server (`URLSESSIOND_OBJECT_STORE_URL` and the key).
    public func serviceEnvironment(prefix: String = "") -> [String: String] {
        [
            "URLSESSIOND_OBJECT_STORE_URL": objectStoreURL(prefix: prefix),
            "AWS_ACCESS_KEY_ID": accessKeyId, "AWS_SECRET_ACCESS_KEY": secretAccessKey,
        ]
    }

    /// Ends the server (blocking until it is gone) and removes its files. Later calls do nothing.
    public func stop() {
        script.stop()
        directory.remove()
    }
}
