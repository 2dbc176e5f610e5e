import Foundation
import TestSupport
import Testing
import URLSessionRemote

/// `streamTask(withHostName:port:)` against a TCP echo server: write, read, the end of the stream.
@Suite("URLSessionRemote: stream tasks")
struct StreamTaskTests {
    @Test(.timeLimit(.minutes(1)))
    func bytesWrittenComeBackAndClosingWriteEndsTheStream() async throws {
        let origin = try await TCPEchoOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = RecordingDelegate()
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.streamTask(withHostName: "127.0.0.1", port: origin.port)
            try await task.resume()
            try await task.write(Data("hello\n".utf8), timeout: 10)
            let (data, atEOF) = try await task.readData(ofMinLength: 6, maxLength: 1024, timeout: 10)
            #expect(data == Data("hello\n".utf8))
            #expect(!atEOF)
            try await task.closeWrite()
            let (rest, end) = try await task.readData(ofMinLength: 1, maxLength: 1024, timeout: 10)
            #expect(rest == nil)
            #expect(end)
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.completions.first?.error == nil)
        }
    }
}
