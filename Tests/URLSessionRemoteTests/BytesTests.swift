import Foundation
import TestSupport
import Testing
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `bytes(for:)`: the body as it arrives, and a failure mid-body as the transfer's `URLError`.
@Suite("URLSessionRemote: bytes(for:)")
struct BytesTests {
    @Test(.timeLimit(.minutes(1)))
    func theBodyArrivesBeforeTheTransferEnds() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let url = try URL.fixture(origin.url("/gate/bytes-stream?bytes=1000&total=3000&seed=5"))
            let (bytes, response) = try await session.bytes(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            var iterator = bytes.makeAsyncIterator()
            var received: [UInt8] = []
            // The origin holds the rest until the gate opens: these bytes came while the transfer runs.
            while received.count < 1000, let byte = try await iterator.next() { received.append(byte) }
            #expect(bytes.task.state == .running)
            origin.openGate("bytes-stream")
            while let byte = try await iterator.next() { received.append(byte) }
            #expect(received == FixtureOrigin.bytes(count: 3000, seed: 5))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTransferThatFailsMidBodyThrowsItsError() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let url = try URL.fixture(origin.url("/gate/bytes-fail?bytes=1000&total=3000&seed=5&fail=1"))
            let (bytes, _) = try await session.bytes(from: url)
            var iterator = bytes.makeAsyncIterator()
            var count = 0
            while count < 1000, try await iterator.next() != nil { count += 1 }
            origin.openGate("bytes-fail")
            let error = try await #require(throws: URLError.self) {
                while try await iterator.next() != nil {}
            }
            #expect(error.code == .networkConnectionLost)
            #expect(bytes.task.state == .completed)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRefusedConnectionThrowsBeforeAnyResponse() async throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let error = try await #require(throws: URLError.self) {
                _ = try await session.bytes(from: .fixture("http://127.0.0.1:\(refusing.port)/"))
            }
            #expect(error.code == .cannotConnectToHost)
        }
    }
}
