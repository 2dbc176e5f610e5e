import Crypto
import Foundation
import TestSupport
import Testing
import TransferEngine
import TransferModels

/// `uploadTask(withStreamedRequest:)` at the engine: bytes written while the transfer runs reach the
/// origin in order, with flow control both ways.
@Suite("Streamed uploads (engine)")
struct StreamedUploadTests {
    private static func digest(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// 24 MiB through a 256 KiB buffer, written in uneven pieces by a producer that starts before the
    /// transfer has a connection: the origin receives every byte (chunked, no length announced), and the
    /// producer is held back by the full buffer rather than the stream growing.
    @Test(.timeLimit(.minutes(1)))
    func aStreamLargerThanItsBufferReachesTheOriginWhole() async throws {
        let fixture = try EngineFixture()
        let body = FixtureOrigin.bytes(count: 24 << 20, seed: 5)
        let stream = UploadStream(capacity: 256 << 10)
        let producer = Task {
            var offset = 0
            var piece = 1
            while offset < body.count {
                let end = min(body.count, offset + piece * 7919)
                await stream.write(Array(body[offset..<end]))
                offset = end
                piece = piece % 97 + 1
            }
            stream.finish()
        }
        let outcome = await fixture.run(fixture.job("/upload", method: "PUT", body: .stream(stream), kind: .upload))
        await producer.value
        #expect(outcome.error == nil)
        let answer = String(decoding: outcome.bodyBytes, as: UTF8.self)
        #expect(answer.contains(#""bodySize":\#(body.count)"#))
        #expect(answer.contains(Self.digest(body)))
        #expect(answer.lowercased().contains("chunked"), "no length was announced")
        #expect(stream.bytesConsumed == Int64(body.count))
        await fixture.close()
    }

    /// A declared length goes as Content-Length; the transfer waits (paused) while the producer is slow.
    @Test(.timeLimit(.minutes(1)))
    func aDeclaredLengthIsSentAndASlowProducerPausesTheTransfer() async throws {
        let fixture = try EngineFixture()
        let stream = UploadStream(capacity: 1024, declaredLength: 30)
        let producer = Task {
            for index in 0..<3 {
                try? await Task.sleep(for: .milliseconds(100))
                await stream.write(Array(repeating: UInt8(65 + index), count: 10))
            }
            stream.finish()
        }
        let outcome = await fixture.run(fixture.job("/upload", method: "POST", body: .stream(stream), kind: .upload))
        await producer.value
        #expect(outcome.error == nil)
        let answer = String(decoding: outcome.bodyBytes, as: UTF8.self)
        #expect(answer.contains(#""bodySize":30"#))
        #expect(
            answer.contains(
                Self.digest(Array(repeating: 65, count: 10) + Array(repeating: 66, count: 10) + Array(repeating: 67, count: 10))))
        #expect(outcome.progress.bytesSent == 30)
        await fixture.close()
    }

    /// A 307 keeps the body: the engine asks for the redirect, and following it with a new stream (the
    /// task layer's `needNewBodyStream`) sends that one; following with the stream already read fails
    /// with -1021.
    @Test(.timeLimit(.minutes(1)))
    func aRedirectKeepingTheBodyTakesANewStreamOrFails() async throws {
        let fixture = try EngineFixture()
        let first = UploadStream()
        let second = UploadStream()
        let engine = fixture.engine
        fixture.observer.redirectAnswers.withLock {
            $0 = { id, proposed in
                var request = proposed
                request.body = .stream(second)
                engine.resolveRedirect(id, .follow(request))
            }
        }
        let writers = Task {
            await first.write(Array(repeating: 1, count: 100))
            first.finish()
            await second.write(Array(repeating: 2, count: 300))
            second.finish()
        }
        let outcome = await fixture.run(fixture.job("/redirect/307?to=/upload", method: "PUT", body: .stream(first), kind: .upload))
        await writers.value
        #expect(outcome.error == nil)
        let answer = String(decoding: outcome.bodyBytes, as: UTF8.self)
        #expect(answer.contains(#""bodySize":300"#) && answer.contains(Self.digest(Array(repeating: 2, count: 300))))

        let only = UploadStream()
        fixture.observer.redirectAnswers.withLock { $0 = { id, proposed in engine.resolveRedirect(id, .follow(proposed)) } }
        let writer = Task {
            await only.write(Array(repeating: 3, count: 100))
            only.finish()
        }
        let failed = await fixture.run(fixture.job("/redirect/308?to=/upload", method: "PUT", body: .stream(only), kind: .upload))
        await writer.value
        #expect(failed.error?.code == URLErrorCode.requestBodyStreamExhausted.rawValue)
        await fixture.close()
    }

    /// The client leaving mid-body fails the task with -1021.
    @Test(.timeLimit(.minutes(1)))
    func aFailedProducerEndsWithMinus1021() async throws {
        let fixture = try EngineFixture()
        let broken = UploadStream()
        let producer = Task {
            await broken.write(Array(repeating: 1, count: 5000))
            try? await Task.sleep(for: .milliseconds(50))
            broken.fail()
        }
        let failed = await fixture.run(fixture.job("/upload", method: "PUT", body: .stream(broken), kind: .upload))
        await producer.value
        #expect(failed.error?.code == URLErrorCode.requestBodyStreamExhausted.rawValue)
        await fixture.close()
    }

    /// A producer waiting for room is released when the transfer is cancelled.
    @Test(.timeLimit(.minutes(1)))
    func cancellingReleasesAWaitingProducer() async throws {
        let fixture = try EngineFixture()
        let stream = UploadStream(capacity: 1024)
        // /stall never reads the body: the buffer fills and the producer waits.
        let job = fixture.job("/stall?bytes=0&total=10", method: "PUT", body: .stream(stream), kind: .upload)
        fixture.engine.start(job)
        let producer = Task { await stream.write(Array(repeating: 3, count: 1 << 20)) }
        try await Task.sleep(for: .milliseconds(200))
        fixture.engine.cancel(job.id)
        let outcome = await fixture.observer.outcome(of: job.id)
        await producer.value  // returns: the stream was abandoned
        #expect(outcome.error?.code == URLErrorCode.cancelled.rawValue)
        #expect(stream.offer(UnsafeRawBufferPointer(start: nil, count: 0)) == 0)
        await fixture.close()
    }
}
