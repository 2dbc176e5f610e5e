import Foundation
import TestSupport
import Testing

/// A body in a coding libcurl cannot decode is delivered as it came, labelled by its `Content-Encoding` or
/// `Transfer-Encoding`, as browsers do (libcurl alone fails it with 61, -1016); a known coding that fails to decode
/// is still -1016.
@Suite("Tasks: content and transfer codings libcurl does not know")
struct TasksContentCodingTests {
    @Test(
        .timeLimit(.minutes(2)),
        arguments: [
            ["contentEncoding": "x-unknown"],
            ["contentEncoding": "gzip, x-unknown"],  // the outer coding is unknown: nothing can be undone
            ["contentEncoding": "X-Unknown", "transferEncoding": "chunked"],
            ["transferEncoding": "x-unknown"],  // RFC 9112 §6.3: not chunked last, the close delimits the body
            ["transferEncoding": "x-unknown, chunked"],
        ])
    func anUnknownCodingIsPassedThroughUndecoded(codings: [String: String]) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let query = codings.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
            .joined(separator: "&")
        let url = origin.url("/unknown-coding?size=20000&" + query)
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            for kind in ["data", "download"] {
                let task = try await api.runTask(session: session, ["kind": kind, "request": ["url": url]])
                #expect(task.errorCode == nil, "\(kind): \(task)")
                #expect(task.statusCode == 200, "\(kind): \(task)")
                if let coding = codings["contentEncoding"] { #expect(task.responseHeader("Content-Encoding") == coding) }
                let body = kind == "data" ? try await api.taskData(task.taskID) : try await api.taskFile(task.taskID)
                #expect(sha256Hex(body.body) == sha256Hex(FixtureOrigin.text(count: 20000)), "\(kind): the bytes as sent")
                #expect(task.count("countOfBytesReceived") == 20000, "\(kind): \(task)")
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aKnownCodingThatDoesNotDecodeStillFails() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            // Plain text labelled gzip: libcurl knows gzip, and the bytes are not gzip.
            let task = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/unknown-coding?contentEncoding=gzip")]])
            #expect(task.errorCode == -1016, "\(task)")
            #expect(task.errorObject?["name"] as? String == "cannotDecodeContentData")
        }
    }
}
