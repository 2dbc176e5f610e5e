import Foundation
import Testing
import TransferModels
import TransferStore

@testable import SessionTasks
@testable import TransferEngine

/// The completer alone: an ended transfer (as the engine reports it) becomes its completion.
@Suite("TaskCompleter", .timeLimit(.minutes(1)))
struct TaskCompleterTests {
    struct Paths: TaskBodyLocations {
        func fileLocation(ofTask id: String) -> String { "/v1/tasks/\(id)/file" }
        func dataLocation(ofTask id: String) -> String { "/v1/tasks/\(id)/data" }
    }

    private func completer(_ fixture: ApplicationLayerFixture) -> TaskCompleter {
        TaskCompleter(
            store: fixture.store, configuration: fixture.configuration, locations: Paths(), files: fixture.files,
            channels: ConnectionChannels(), logger: fixture.logger)
    }

    private func outcome(_ url: String, status: Int = 200, body: TransferBody, error: TransferFailure? = nil) -> TransferOutcome {
        var head = ResponseHead()
        head.statusCode = status
        head.fields = [("Content-Type", "text/plain; charset=UTF-8")]
        let received: Int64 = if case .bytes(let bytes) = body { Int64(bytes.count) } else { 0 }
        return TransferOutcome(
            response: error == nil ? head : nil, currentRequest: OutgoingRequest(url: url, method: "GET"), error: error,
            progress: TransferProgress(bytesSent: 0, bytesExpectedToSend: 0, bytesReceived: received, bytesExpectedToReceive: received),
            body: body, transactions: [])
    }

    private func active(_ task: TaskRecord, _ session: SessionRecord) -> ActiveTask {
        ActiveTask(record: task, session: session, started: Date(), partialPath: nil, number: 1)
    }

    @Test func aSmallBodyIsKeptInTheStoreWithItsResponse() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let session = try await fixture.session()
        let task = try await fixture.task(#"{"kind": "data", "request": {"url": "https://o.example/a"}}"#, in: session)
        let completion = await completer(fixture).completion(
            of: outcome("https://o.example/a", body: .bytes(Array("hello".utf8))), from: active(task, session), producingResumeData: false)
        #expect(completion.error == nil && completion.body == Array("hello".utf8) && completion.filePath == nil)
        #expect(completion.response?.statusCode == 200 && completion.response?.mimeType == "text/plain")
        #expect(completion.response?.textEncodingName == "utf-8")
        #expect(completion.counts?.received == 5 && completion.fileExpiresAt != nil)
    }

    @Test func aBodyThatDoesNotMatchItsDigestFailsTheTaskAndIsNotKept() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let session = try await fixture.session()
        let digest = "sha-256=:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:"
        let task = try await fixture.task(
            #"{"kind": "download", "request": {"url": "https://o.example/f"}, "expectedDigest": "\#(digest)"}"#, in: session)
        let ended = outcome("https://o.example/f", body: .bytes(Array("not that".utf8)))
        let completion = await completer(fixture).completion(of: ended, from: active(task, session), producingResumeData: false)
        #expect(completion.error?.code == URLErrorCode.badServerResponse.rawValue)
        #expect(completion.error?.userInfo["reason"] == "digestMismatch")
        #expect(completion.body == nil && completion.filePath == nil, "a failed task has no body")
    }

    @Test func aLargeDownloadBecomesItsFinishedFile() async throws {
        let fixture = try ApplicationLayerFixture { $0.keptBodyLimit = 4 }
        defer { fixture.close() }
        let session = try await fixture.session()
        let task = try await fixture.task(#"{"kind": "download", "request": {"url": "https://o.example/f"}}"#, in: session)
        let completion = await completer(fixture).completion(
            of: outcome("https://o.example/f", body: .bytes(Array("more than four".utf8))), from: active(task, session),
            producingResumeData: false)
        let path = try #require(completion.filePath)
        #expect(path == fixture.configuration.engine.downloadsDirectory.path + "/" + task.id)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "more than four" && completion.storedBytes == 14)
    }

    @Test func aFailedTransferCarriesItsURLErrorAndLibcurlsCause() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let session = try await fixture.session()
        let task = try await fixture.task(#"{"kind": "data", "request": {"url": "https://o.example/a"}}"#, in: session)
        let failure = TransferFailure(code: URLErrorCode.timedOut.rawValue, curlCode: 28, message: "Operation timed out")
        let completion = await completer(fixture).completion(
            of: outcome("https://o.example/a", body: .none, error: failure), from: active(task, session), producingResumeData: false)
        #expect(completion.error?.code == URLErrorCode.timedOut.rawValue)
        #expect(completion.error?.underlying?.code == 28 && completion.error?.underlying?.domain == "libcurl")
        #expect(completion.response == nil && completion.body == nil)
    }
}
