import Foundation

/// An object's bytes as a GET receives them: the request's thread (`ObjectStore.get`) delivers chunks, an
/// async reader takes them with ``next()``.
///
/// At most `capacity` bytes wait here: beyond that the delivering thread waits (inside libcurl's write
/// callback, on a thread of its own) until the reader takes some, so a slow reader slows the download
/// instead of growing memory. A reader that leaves calls ``cancel()``: the thread stops waiting and the
/// transfer ends.
///
/// `@unchecked Sendable`: every stored `var` is read and written with `condition` locked.
public final class ObjectReader: @unchecked Sendable {
    /// Bytes buffered at most before the delivering thread waits.
    static let capacity = 1 << 20

    private let condition = NSCondition()
    private var chunks: [[UInt8]] = []
    private var buffered = 0
    private var end: Result<Void, ObjectStoreError>?
    private var stopped = false
    private var waiter: CheckedContinuation<Void, Never>?
    /// How long the delivering thread waits for the reader before giving up on it.
    private let stallTimeout: TimeInterval

    init(stallTimeout: TimeInterval) {
        self.stallTimeout = stallTimeout
    }

    /// The next chunk, nil at the end of the object (or of the range asked for).
    /// - Throws: ``ObjectStoreError`` when the GET failed (before or after its first bytes).
    public func next() async throws(ObjectStoreError) -> [UInt8]? {
        while true {  // bounded: each turn returns, or waits for the delivering thread's next move
            switch take() {
            case .chunk(let chunk): return chunk
            case .end: return nil
            case .failed(let error): throw error
            case .wait: await waitForDelivery()
            }
        }
    }

    private enum Step {
        case chunk([UInt8])
        case end
        case failed(ObjectStoreError)
        case wait
    }

    /// The next buffered chunk, else how the transfer ended, else `wait` (synchronous: the lock is never
    /// held across a suspension).
    private func take() -> Step {
        condition.lock()
        defer { condition.unlock() }
        if stopped { return .failed(.cancelled) }
        if !chunks.isEmpty {
            let chunk = chunks.removeFirst()
            buffered -= chunk.count
            condition.broadcast()
            return .chunk(chunk)
        }
        switch end {
        case .success?: return .end
        case .failure(let error)?: return .failed(error)
        case nil: return .wait
        }
    }

    /// The reader leaves: what is buffered is dropped and the transfer stops (at once if it was waiting
    /// for room, else within a second: libcurl's progress callback asks).
    public func cancel() {
        condition.lock()
        stopped = true
        chunks = []
        buffered = 0
        condition.broadcast()
        let waiting = waiter
        waiter = nil
        condition.unlock()
        waiting?.resume()
    }

    private func waitForDelivery() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !park(continuation) { continuation.resume() }
        }
    }

    /// Keeps `continuation` for the next delivery; false when there is no need to wait.
    private func park(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard chunks.isEmpty, end == nil, !stopped else { return false }
        waiter = continuation  // one reader: at most one waiter
        return true
    }

    // MARK: The delivering thread

    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Buffers `bytes` for the reader, first waiting while `capacity` bytes are unread. False: the reader
    /// left, or took nothing for `stallTimeout` seconds (the transfer then stops).
    func deliver(_ bytes: UnsafeRawBufferPointer) -> Bool {
        condition.lock()
        let deadline = Date().addingTimeInterval(stallTimeout)
        while buffered >= Self.capacity && !stopped {  // bounded by the deadline
            guard condition.wait(until: deadline) else {
                condition.unlock()
                return false
            }
        }
        guard !stopped else {
            condition.unlock()
            return false
        }
        chunks.append(Array(bytes))
        buffered += bytes.count
        let waiting = waiter
        waiter = nil
        condition.unlock()
        waiting?.resume()
        return true
    }

    /// The transfer ended: the reader gets what is buffered, then nil or the error.
    func finish(_ result: Result<Void, ObjectStoreError>) {
        condition.lock()
        end = result
        let waiting = waiter
        waiter = nil
        condition.unlock()
        waiting?.resume()
    }
}
