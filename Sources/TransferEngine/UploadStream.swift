import Foundation

/// The body of a streamed upload (`uploadTask(withStreamedRequest:)`): bytes a client is still sending,
/// passed to the origin as they arrive and never stored whole. A bounded buffer between one producer
/// (the API's request body) and one consumer (libcurl's read callback on the engine's loop thread), with
/// flow control both ways: a full buffer stops the producer until the origin has taken bytes, an empty
/// one pauses the transfer until the producer adds some.
///
/// `@unchecked Sendable`: every field is under `lock`; the handlers run outside it.
public final class UploadStream: @unchecked Sendable, Hashable {
    /// What the consumer finds.
    public enum Read: Equatable, Sendable {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing now; the readable handler is called once there is.
        case empty
        /// The producer finished and every byte was read.
        case end
        /// The producer failed (its client went away before the end).
        case failed
    }

    /// How many bytes it holds at most (the producer waits past it).
    public let capacity: Int
    /// The body's length when the client announced it (`Content-Length` to the origin), else chunked.
    public let declaredLength: Int64?
    private let lock = NSLock()
    /// The bytes in waiting, a ring of `capacity` bytes (allocated at the first offer): each byte is copied
    /// once in and once out, never moved inside (an array compacted as it drained moved about as many
    /// bytes again as it carried: `Benchmarks/upload.sh`, BENCHMARKS.md "Uploads at line rate").
    private var ring: UnsafeMutableRawPointer?
    /// Where the unread bytes start in `ring`, and how many there are.
    private var start = 0
    private var count = 0
    private var finished = false
    private var failed = false
    /// Bytes handed to the consumer so far.
    private var consumed: Int64 = 0
    private var readable: (@Sendable () -> Void)?
    private var writable: (@Sendable () -> Void)?
    /// `write`'s wait for room, resumed once.
    private var writer: CheckedContinuation<Void, Never>?
    /// The consumer found nothing: the next bytes (or the end) call `readable`.
    private var consumerWaits = false
    /// The producer found no room: freed room calls `writable`.
    private var producerWaits = false

    /// A producer that found no room is woken once the unread bytes fall to this many: half the ring, so
    /// each wake-up (an MHD resume, a thread switch) is paid for by half a ring of bytes rather than by
    /// the few that one read of the consumer freed.
    private let producerWakeLevel: Int

    public init(capacity: Int = 1 << 20, declaredLength: Int64? = nil) {
        self.capacity = max(1, capacity)
        self.declaredLength = declaredLength
        producerWakeLevel = self.capacity / 2
    }

    deinit { ring?.deallocate() }

    public static func == (lhs: UploadStream, rhs: UploadStream) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The transfer stopped reading it (ended, cancelled), or its producer failed: nothing is taken.
    public var isAbandoned: Bool { lock.withLock { failed } }

    /// Bytes given to the origin so far.
    public var bytesConsumed: Int64 { lock.withLock { consumed } }

    /// Who to tell once bytes (or the end) arrive after the consumer found none (the engine: unpause).
    public func onReadable(_ handler: @escaping @Sendable () -> Void) {
        lock.withLock { readable = handler }
    }

    /// Who to tell once room frees after the producer found none (the API: resume reading the client).
    public func onWritable(_ handler: @escaping @Sendable () -> Void) {
        lock.withLock { writable = handler }
    }

    // MARK: The producer

    /// Takes what fits of `bytes`: how many. Fewer than given means the buffer is full; `onWritable`'s
    /// handler is called when room frees. After `finish` or `fail`, nothing is taken.
    public func offer(_ bytes: UnsafeRawBufferPointer) -> Int {
        let (taken, wake) = lock.withLock { () -> (Int, (@Sendable () -> Void)?) in
            guard !finished, !failed else { return (0, nil) }
            let taken = min(capacity - count, bytes.count)
            if taken < bytes.count { producerWaits = true }
            guard taken > 0 else { return (0, nil) }
            let ring = self.ring ?? UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            self.ring = ring
            // The free space starts after the unread bytes and may wrap around the ring's end.
            let end = (start + count) % capacity
            let first = min(taken, capacity - end)
            (ring + end).copyMemory(from: bytes.baseAddress!, byteCount: first)
            if first < taken { ring.copyMemory(from: bytes.baseAddress! + first, byteCount: taken - first) }
            count += taken
            return (taken, takeReadable())
        }
        wake?()
        return taken
    }

    /// The producer sent its last byte.
    public func finish() { end { $0.finished = true } }

    /// The producer cannot send the rest (its client went away): the transfer fails.
    public func fail() { end { $0.failed = true } }

    /// The transfer ended before the body did (cancelled, failed): the producer stops.
    public func abandon() { end { $0.failed = true } }

    private func end(_ mark: (UploadStream) -> Void) {
        let (wake, producer, waitingWriter) = lock.withLock {
            () -> ((@Sendable () -> Void)?, (@Sendable () -> Void)?, CheckedContinuation<Void, Never>?) in
            mark(self)
            let producer = failed && producerWaits ? writable : nil
            let waitingWriter = failed ? writer : nil
            if failed { (producerWaits, writer) = (false, nil) }
            return (takeReadable(), producer, waitingWriter)
        }
        wake?()
        producer?()
        waitingWriter?.resume()
    }

    /// Writes all of `bytes`, waiting for room as needed (for producers that are not an event loop).
    public func write(_ bytes: [UInt8]) async {
        var offset = 0
        while offset < bytes.count {
            let taken = bytes.withUnsafeBytes { offer(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            offset += taken
            if taken == 0 {
                if lock.withLock({ finished || failed }) { return }
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = lock.withLock { () -> Bool in
                        if count <= producerWakeLevel || finished || failed { return true }
                        producerWaits = true
                        writer = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    // MARK: The consumer

    /// Copies the next bytes into `destination` (the loop thread, in libcurl's read callback).
    public func read(into destination: UnsafeMutableRawBufferPointer) -> Read {
        let (result, wake, waitingWriter) = lock.withLock { () -> (Read, (@Sendable () -> Void)?, CheckedContinuation<Void, Never>?) in
            if failed { return (.failed, nil, nil) }
            guard count > 0, let ring else {
                if finished { return (.end, nil, nil) }
                consumerWaits = true
                return (.empty, nil, nil)
            }
            // The unread bytes may wrap around the ring's end: up to two copies.
            let given = min(count, destination.count)
            let first = min(given, capacity - start)
            destination.baseAddress!.copyMemory(from: ring + start, byteCount: first)
            if first < given { (destination.baseAddress! + first).copyMemory(from: ring, byteCount: given - first) }
            start = (start + given) % capacity
            count -= given
            if count == 0 { start = 0 }
            consumed += Int64(given)
            guard producerWaits, count <= producerWakeLevel else { return (.bytes(given), nil, nil) }
            producerWaits = false
            defer { writer = nil }
            return (.bytes(given), writable, writer)
        }
        wake?()
        waitingWriter?.resume()
        return result
    }

    /// Under `lock`: the consumer's handler when it waits for what just arrived.
    private func takeReadable() -> (@Sendable () -> Void)? {
        guard consumerWaits else { return nil }
        consumerWaits = false
        return readable
    }
}
