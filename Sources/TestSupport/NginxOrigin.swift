public import Foundation

/// A Debian nginx on loopback, for what only a standard server shows: TLS with a self-signed certificate,
/// HTTP/2 negotiated by ALPN, sendfile-speed static files.
///
/// It runs in the foreground of a child process with a generated configuration in a temporary directory;
/// `stop()` (or deinit) ends it. The port comes from the OS: a socket is bound to port 0 and released just
/// before nginx binds it.
public final class NginxOrigin: Sendable {
    public let port: Int
    public let baseURL: String
    /// The self-signed certificate (PEM) when TLS is on: trust it to verify the origin.
    public let certificatePath: String?
    private let process: Process
    private let directory: TemporaryDirectory

    /// Serves `files` (name → bytes) at `/<name>`; with `tls`, over HTTPS with HTTP/2 and HTTP/1.1, and
    /// the TLS versions `tlsProtocols` (nginx's `ssl_protocols` names, e.g. `TLSv1.2`; nil: its defaults).
    /// With `clientCertificateAuthority` (a PEM file), nginx requires a client certificate it issued
    /// (`ssl_verify_client on`) and answers 400 without one. With `basicAuth`, every file needs that user
    /// and password (`auth_basic`, realm `nginx`; the password hashed by `openssl passwd`). With
    /// `webSocketUpstream` (a loopback port), every path is proxied there with the WebSocket upgrade passed
    /// on (`wss://` in front of a `ws://` server) instead of serving files.
    public static func start(
        tls: Bool, files: [String: [UInt8]] = [:], tlsProtocols: [String]? = nil, clientCertificateAuthority: String? = nil,
        basicAuth: (user: String, password: String)? = nil, webSocketUpstream: Int? = nil
    ) async throws -> NginxOrigin {
        let directory = try TemporaryDirectory.make(prefix: "nginx-origin")
        let root = directory.appending("www")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: root.appendingPathComponent(name)) }
        // Workers run as an unprivileged user when nginx starts as root: let them read the tree.
        _ = try? runTool("/bin/chmod", ["-R", "a+rX", directory.path])
        var certificate: String?
        if tls {
            certificate = try SelfSignedCertificate.make(in: directory).certificate
            _ = try? runTool("/bin/chmod", ["a+r", directory.appending("key.pem").path])
        }
        var authLines = ""
        if let basicAuth {
            let hash = try runTool("/usr/bin/openssl", ["passwd", "-apr1", basicAuth.password])
            let file = directory.appending("htpasswd")
            try "\(basicAuth.user):\(hash.trimmingCharacters(in: .whitespacesAndNewlines))\n".write(
                to: file, atomically: false, encoding: .utf8)
            _ = chmod(file.path, 0o644)
            authLines = #"auth_basic "nginx"; auth_basic_user_file \#(file.path);"#
        }
        let port = try freeLoopbackPort()
        let listen = tls ? "listen 127.0.0.1:\(port) ssl http2;" : "listen 127.0.0.1:\(port);"
        let tlsLines =
            tls
            ? "ssl_certificate \(certificate!); ssl_certificate_key \(directory.appending("key.pem").path);"
                + (tlsProtocols.map { " ssl_protocols \($0.joined(separator: " "));" } ?? "")
                + (clientCertificateAuthority.map { " ssl_client_certificate \($0); ssl_verify_client on;" } ?? "") : ""
        let temp = directory.appending("tmp").path
        try FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: true)
        let configuration = """
            worker_processes 1;
            pid \(directory.appending("nginx.pid").path);
            error_log \(directory.appending("error.log").path);
            events { worker_connections 1024; }
            http {
                access_log off; sendfile on; keepalive_requests 100000;
                client_body_temp_path \(temp); proxy_temp_path \(temp); fastcgi_temp_path \(temp);
                uwsgi_temp_path \(temp); scgi_temp_path \(temp);
                server { \(listen) \(tlsLines) \(authLines) \(webSocketUpstream.map(Self.webSocketProxy) ?? "root \(root.path);") }
            }
            """
        let configurationFile = directory.appending("nginx.conf")
        try configuration.write(to: configurationFile, atomically: false, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", configurationFile.path, "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let origin = NginxOrigin(port: port, tls: tls, certificate: certificate, process: process, directory: directory)
        try await origin.waitUntilListening()
        return origin
    }

    /// A location passing everything, the upgrade included, to a WebSocket server on `port`.
    private static func webSocketProxy(_ port: Int) -> String {
        """
        location / { proxy_pass http://127.0.0.1:\(port); proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection "upgrade"; proxy_set_header Host $http_host; proxy_read_timeout 60s; }
        """
    }

    private init(port: Int, tls: Bool, certificate: String?, process: Process, directory: TemporaryDirectory) {
        self.port = port
        self.baseURL = "\(tls ? "https" : "http")://127.0.0.1:\(port)"
        self.certificatePath = certificate
        self.process = process
        self.directory = directory
    }

    public func url(_ path: String) -> String { baseURL + path }

    /// Replaces (or adds) the file served at `/<name>`; with `modified`, its modification time — what
    /// nginx sends as `Last-Modified` and builds its `ETag` from.
    public func write(_ name: String, _ bytes: [UInt8], modified: Date? = nil) throws {
        let path = directory.appending("www").appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        _ = chmod(path, 0o644)
        if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        directory.remove()
    }

    deinit { stop() }

    private func waitUntilListening() async throws {
        for _ in 0..<250 {
            guard process.isRunning else { break }
            if loopbackPortAccepts(port) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        let log = (try? String(contentsOf: directory.appending("error.log"), encoding: .utf8)) ?? ""
        stop()
        throw NginxOriginError(message: "nginx did not start listening on \(port): \(log)")
    }

    /// Runs a tool to its end; its standard output.
    @discardableResult
    static func runTool(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NginxOriginError(message: "\(path) \(arguments.first ?? "") exited with \(process.terminationStatus)")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

public struct NginxOriginError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
