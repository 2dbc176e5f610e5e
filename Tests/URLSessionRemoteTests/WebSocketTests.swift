import Foundation
import TestSupport
import Testing
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `webSocketTask(with:)`: send, receive, ping and the close handshake against a real WebSocket echo server.
@Suite("URLSessionRemote: WebSocket tasks")
struct WebSocketTests {
    @Test(.timeLimit(.minutes(1)))
    func messagesComeBackAndTheCloseHandshakeCompletesTheTask() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = RecordingDelegate()
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.webSocketTask(with: .fixture(origin.url("/echo")))
            try await task.resume()
            try await task.send(.string("hello"))
            guard case .string(let text) = try await task.receive() else { throw URLError(.cannotDecodeContentData) }
            #expect(text == "hello")
            let bytes = Data([0, 1, 2, 254, 255])
            try await task.send(.data(bytes))
            guard case .data(let echoed) = try await task.receive() else { throw URLError(.cannotDecodeContentData) }
            #expect(echoed == bytes)
            try await task.sendPing()
            try await task.cancel(with: .normalClosure, reason: Data("done".utf8))
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.completions.first?.error == nil)
            #expect(task.closeCode == .normalClosure)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theServersCloseEndsReceiveWithTheCloseCode() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let task = try await session.webSocketTask(with: .fixture(origin.url("/close-now")))
            try await task.resume()
            await #expect(throws: (any Error).self) { _ = try await task.receive() }
            #expect(task.closeCodeRawValue == 4000)
            #expect(task.closeReason == Data("bye".utf8))
        }
    }
}
