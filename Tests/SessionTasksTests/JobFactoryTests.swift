import Foundation
import NetworkPaths
import TestSupport
import Testing
import TransferEngine
import TransferModels
import TransferStore

@testable import SessionTasks

/// The job factory alone: what a task and its session become for the engine, without starting anything.
@Suite("JobFactory", .timeLimit(.minutes(1)))
struct JobFactoryTests {
    private func factory(_ fixture: ApplicationLayerFixture) -> JobFactory {
        JobFactory(
            store: fixture.store, configuration: fixture.configuration, files: fixture.files,
            trustBundles: TrustBundles(directory: fixture.configuration.trustDirectory, authorities: nil),
            networks: NetworkPathMonitor(paths: [], interfaces: { [:] }, logger: fixture.logger), storages: fixture.storages)
    }

    @Test func theSessionsHeadersGoUnderTheRequestsAndItsLimitsOnTheJob() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let session = try await fixture.session(
            #"{"configuration": {"httpAdditionalHeaders": {"X-Both": "session", "X-Session": "s"}, "timeoutIntervalForResource": 90,"#
                + #" "httpMaximumConnectionsPerHost": 3, "urlCache": null}}"#)
        let task = try await fixture.task(
            #"{"kind": "data", "priority": 0.75, "request": {"url": "https://o.example/a", "timeoutInterval": 7,"#
                + #" "allHTTPHeaderFields": {"x-both": "request"}}}"#, in: session)
        let (job, stale) = try await factory(fixture).makeJob(for: task, session: session, attempt: 2)
        #expect(job.id == TransferID(taskId: task.id, attempt: 2) && job.kind == .data && job.tenant == "t1")
        #expect(
            job.request.headers.map { "\($0.name): \($0.value)" } == ["x-both: request", "X-Session: s"],
            "the request wins, names compared without case")
        #expect(job.timeoutIntervalForRequest == 7 && job.timeoutIntervalForResource == 90 && job.httpMaximumConnectionsPerHost == 3)
        #expect(job.priority == 0.75 && job.sharesConnections)
        #expect(job.downloadPath?.hasPrefix(fixture.configuration.engine.downloadsDirectory.path + "/\(task.id).") == true)
        #expect(job.storedResponse == nil && stale == nil, "no cache")
    }

    @Test func anEphemeralSessionSharesNoConnectionAndItsProxyDictionaryIsUsed() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let session = try await fixture.session(
            #"{"configuration": {"kind": "ephemeral", "connectionProxyDictionary": {"HTTPSEnable": true, "HTTPSProxy": "proxy.example","#
                + #" "HTTPSPort": 3128, "ExceptionsList": ["*.local"]}}}"#)
        let task = try await fixture.task(#"{"kind": "download", "request": {"url": "https://o.example/f"}}"#, in: session)
        let (job, _) = try await factory(fixture).makeJob(for: task, session: session, attempt: 1)
        #expect(!job.sharesConnections)
        #expect(job.proxy == "http://proxy.example:3128" && job.noProxy == "*.local")
        #expect(job.networkPath?.name == NetworkPath.defaultRoute.name)
    }

    @Test func serverTrustAnchorsAreWrittenOnceAsTheSessionsBundle() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let anchor = try Self.selfSignedCertificate(in: fixture)
        let anchors = try String(decoding: JSONEncoder().encode([anchor]), as: UTF8.self)
        let session = try await fixture.session(#"{"configuration": {"serverTrust": {"anchors": \#(anchors)}}}"#)
        let task = try await fixture.task(#"{"kind": "data", "request": {"url": "https://o.example/a"}}"#, in: session)
        let jobs = factory(fixture)
        let (job, _) = try await jobs.makeJob(for: task, session: session, attempt: 1)
        let path = try #require(job.certificateAuthoritiesFile)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(anchor.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try await jobs.makeJob(for: task, session: session, attempt: 2).job.certificateAuthoritiesFile == path)
    }

    /// A PEM certificate made by openssl for the test.
    private static func selfSignedCertificate(in fixture: ApplicationLayerFixture) throws -> String {
        let (certificate, key) = (fixture.directory.appending("anchor.pem").path, fixture.directory.appending("anchor.key").path)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=anchor",
            "-keyout", key, "-out", certificate,
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        return try String(contentsOfFile: certificate, encoding: .utf8)
    }

    @Test func aFileURLOutsideTheRootCannotStart() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let session = try await fixture.session()
        let task = try await fixture.task(
            #"{"kind": "data", "request": {"url": "file:///etc/passwd"}}"#, in: session, schemes: ["http", "https", "file"])
        await #expect(throws: TransferError.self) { _ = try await factory(fixture).makeJob(for: task, session: session, attempt: 1) }
    }
}
