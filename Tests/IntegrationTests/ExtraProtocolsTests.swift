import Foundation
import TestSupport
import Testing

/// `URLSESSIOND_EXTRA_PROTOCOLS`: only what libcurl really transfers with (ftp, ftps, file) is accepted, and
/// each of them transfers through the real binary — ftp and ftps against a real FTP server (pyftpdlib), file
/// under `URLSESSIOND_FILE_ROOT` (see `FileRootTests`).
@Suite("Extra protocols")
struct ExtraProtocolsTests {
    @Test(.timeLimit(.minutes(1)), arguments: ["data", "gopher", "ftp,data", "sftp", "http"])
    func valuesLibcurlDoesNotTransferWithAreRefusedAtStartup(value: String) async throws {
        let log = try await expectStartupRefusal(environment: ["URLSESSIOND_EXTRA_PROTOCOLS": value])
        let refused = value.split(separator: ",").last.map(String.init) ?? value
        #expect(log.contains("URLSESSIOND_EXTRA_PROTOCOLS"), "\(log)")
        #expect(log.contains("\"\(refused)\" is not allowed"), "the message names the value: \(log)")
        #expect(log.contains("allowed: ftp, ftps, file"), "the message says what is allowed: \(log)")
    }

    @Test(.timeLimit(.minutes(1)))
    func ftpTransfersThroughTheService() async throws {
        let bytes = FixtureOrigin.bytes(count: 200_000, seed: 7)
        let origin = try await FTPOrigin.start(files: ["file.bin": bytes, "small.txt": Array("over ftp\n".utf8)])
        defer { origin.stop() }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_EXTRA_PROTOCOLS": "ftp"]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await api.makeSession()
            let data = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("small.txt")]])
            #expect(isNull(data["error"]), "\(data)")
            #expect(try await api.taskData(data.taskID).text == "over ftp\n")
            let download = try await api.runTask(session: session, ["kind": "download", "request": ["url": origin.url("file.bin")]])
            #expect(isNull(download["error"]), "\(download)")
            #expect(download.count("countOfBytesReceived") == bytes.count)
            #expect(try await api.taskFile(download.taskID).body == bytes)
            // A file the server does not have fails the task; nothing else is read.
            let missing = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("absent.bin")]])
            #expect(missing.errorCode == -1100, "fileDoesNotExist: \(missing)")
        }
    }

    /// `ftps://` is implicit TLS (libcurl's meaning): the origin's self-signed certificate is refused until
    /// `URLSESSIOND_CA_FILE` trusts it, and then both channels are encrypted.
    @Test(.timeLimit(.minutes(1)))
    func ftpsTransfersWithACertificateTrustedThroughTheCAFile() async throws {
        let bytes = FixtureOrigin.bytes(count: 100_000, seed: 9)
        let origin = try await FTPOrigin.start(tls: true, files: ["file.bin": bytes])
        defer { origin.stop() }
        let request: [String: Any] = ["kind": "download", "request": ["url": origin.url("file.bin")]]
        let untrusted = TaskEnvironment.loopback.merging(["URLSESSIOND_EXTRA_PROTOCOLS": "ftps"]) { $1 }
        try await withTaskService(environment: untrusted) { api, _ in
            let task = try await api.runTask(session: try await api.makeSession(), request)
            #expect(task.errorCode == -1202, "self-signed, not trusted: \(task)")
        }
        let trusted = untrusted.merging(["URLSESSIOND_CA_FILE": try #require(origin.certificatePath)]) { $1 }
        try await withTaskService(environment: trusted) { api, _ in
            let task = try await api.runTask(session: try await api.makeSession(), request)
            #expect(isNull(task["error"]), "\(task)")
            #expect(try await api.taskFile(task.taskID).body == bytes)
        }
    }

    /// Enabled protocols are opt-in per protocol: ftp alone does not open ftps or file.
    @Test(.timeLimit(.minutes(1)))
    func onlyTheListedProtocolsAreAccepted() async throws {
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_EXTRA_PROTOCOLS": " FTP , ftp"]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await api.makeSession()
            let ftp = try await api.postTask(session: session, ["kind": "data", "request": ["url": "ftp://127.0.0.1:9/x"]])
            #expect(ftp.status == 201, "\(ftp.text)")
            for url in ["ftps://127.0.0.1:9/x", "file:///etc/hostname", "data:text/plain,hi"] {
                let refused = try await api.postTask(session: session, ["kind": "data", "request": ["url": url]])
                expectProblem(refused, status: 422, slug: "invalid-value", field: "request.url")
            }
        }
    }
}

/// Starts the binary with `environment` (and `arguments`), expecting it to refuse to start; returns the tail
/// of its log, where the refusal is explained.
func expectStartupRefusal(
    environment: [String: String], arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
) async throws -> String {
    let directory = try TemporaryDirectory.make(prefix: "startup-refusal")
    defer { directory.remove() }
    do {
        let service = try await ServiceProcess.start(
            dataDirectory: directory.url, environment: environment, arguments: arguments, startupTimeout: 20)
        await service.kill9()
        Issue.record("started with \(environment) \(arguments)", sourceLocation: sourceLocation)
        return ""
    } catch let error as ServiceProcessError {
        if let log = error.logFile { try? FileManager.default.removeItem(at: log) }
        return error.logTail
    }
}
