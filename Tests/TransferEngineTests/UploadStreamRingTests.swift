import Foundation
import Testing

import TransferEngine

/// `UploadStream`'s ring: bytes come out in order across its end, and a producer that found it full is
/// woken once half of it has drained, not at the first byte read.
@Suite("Upload stream ring")
struct UploadStreamRingTests {
    /// Offers `bytes`; how many were taken.
    private static func offer(_ stream: UploadStream, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { stream.offer($0) }
    }

    /// Reads at most `count` bytes.
    private static func read(_ stream: UploadStream, _ count: Int) -> (UploadStream.Read, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: count)
        let result = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
        if case .bytes(let got) = result { return (result, Array(buffer[..<got])) }
        return (result, [])
    }

    @Test(.timeLimit(.minutes(1)))
    func bytesComeOutInOrderAcrossTheRingsEnd() {
        let stream = UploadStream(capacity: 10)
        var sent: [UInt8] = []
        var received: [UInt8] = []
        var next: UInt8 = 0
        // Uneven offers and reads, so the unread bytes wrap around the end again and again.
        for round in 0..<200 {
            let piece = (0..<(round % 7 + 1)).map { _ in
                next &+= 1
                return next
            }
            let taken = Self.offer(stream, piece)
            sent += piece[..<taken]
            next = sent.last ?? 0
            let (_, bytes) = Self.read(stream, round % 5 + 1)
            received += bytes
        }
        stream.finish()
        while case (.bytes, let bytes) = Self.read(stream, 3) { received += bytes }
        #expect(received == sent)
        #expect(Self.read(stream, 3).0 == .end)
        #expect(stream.bytesConsumed == Int64(sent.count))
    }

    @Test(.timeLimit(.minutes(1)))
    func aFullRingWakesItsProducerOnceHalfHasDrained() {
        let stream = UploadStream(capacity: 8)
        let wakes = Locked(0)
        stream.onWritable { wakes.withLock { $0 += 1 } }
        #expect(Self.offer(stream, Array(1...10)) == 8, "only what fits is taken")
        #expect(Self.read(stream, 3).1 == [1, 2, 3])
        #expect(wakes.withLock { $0 } == 0, "5 bytes still wait: more than half")
        #expect(Self.read(stream, 1).1 == [4])
        #expect(wakes.withLock { $0 } == 1, "half drained: the producer is woken")
        #expect(Self.read(stream, 2).1 == [5, 6])
        #expect(wakes.withLock { $0 } == 1, "once")
        #expect(Self.offer(stream, Array(9...20)) == 6)
        #expect(Self.read(stream, 8).1 == [7, 8, 9, 10, 11, 12, 13, 14], "in order across the end")
    }
}

/// A value behind a lock, for handlers called from the stream.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
