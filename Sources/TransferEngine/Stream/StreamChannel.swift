public import TransferModels

/// One stream task's connection as the API uses it (`URLSessionStreamTask`'s `readData(ofMinLength:maxLength:
/// timeout:)`, `write(_:timeout:)`, `closeRead`, `closeWrite`, `startSecureConnection`): the received bytes in
/// a bounded buffer, the reads waiting for them in order, and the way to the loop for what is sent. Shared
/// between the connection loop (which fills it and answers writes) and the control plane.
///
/// The buffer applies backpressure rather than dropping: once it holds `bufferLimit` bytes the loop stops
/// reading the socket (TCP's window then slows the peer) and reads again when a read makes room. Reads are
/// answered in the order they came, each once at least its `minBytes` are there (at most its `maxBytes`),
/// at the end of the read side (`atEOF`), or at its timeout.
public final class StreamChannel: Sendable {
    public typealias ReadResult = StreamReadResult
    public typealias WriteResult = StreamWriteResult

    public let id: TransferID
    /// The most received bytes held before reading stops.
    public static let bufferLimit = 4 << 20

    private struct Reader {
        var minBytes: Int
        var maxBytes: Int
        var continuation: CheckedContinuation<ReadResult, Never>
    }

    private struct Store {
        var buffer: [UInt8] = []
        /// The peer ended its side (EOF read), or `closeRead` was called: what is buffered is the last.
        var readEnded = false
        /// The connection ended (completed, failed, cancelled).
        var isClosed = false
        var writeClosed = false
        /// The loop stopped reading because the buffer is full; a read that makes room wakes it.
        var readingStopped = false
        var nextToken: UInt64 = 1
        /// Waiting reads, in the order they came (`order`), by token.
        var readers: [UInt64: Reader] = [:]
        var order: [UInt64] = []
        var writes: [UInt64: CheckedContinuation<WriteResult, Never>] = [:]
    }

    private let store = LockedBox(Store())
    private let commands: @Sendable (StreamCommand) -> Void

    init(id: TransferID, commands: @escaping @Sendable (StreamCommand) -> Void) {
        self.id = id
        self.commands = commands
    }

    // MARK: The API's side

    /// `readData(ofMinLength:maxLength:timeout:)`: once `minBytes` are there (0: at once), up to `maxBytes`
    /// (at most `bufferLimit`); what is left at the end of the read side, with `atEOF`; or `timedOut`.
    public func read(minBytes: Int, maxBytes: Int, timeout: Duration) async -> ReadResult {
        let timer = LockedBox<Task<Void, Never>?>(nil)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<ReadResult, Never>) in
            let (token, answers, wake) = store.withLock { store in
                let token = store.nextToken
                store.nextToken += 1
                store.readers[token] = Reader(minBytes: minBytes, maxBytes: maxBytes, continuation: continuation)
                store.order.append(token)
                let (answers, wake) = Self.serveReaders(&store)
                return (token, answers, wake)
            }
            answer(answers, wake: wake)
            guard store.withLock({ $0.readers[token] != nil }) else { return }
            // Started once registered, so the timeout cannot come before the read it ends.
            timer.withLock {
                $0 = Task {
                    try? await Task.sleep(for: timeout)
                    self.timeOut(token)
                }
            }
        }
        timer.withLock { $0?.cancel() }
        return result
    }

    /// `write(_:timeout:)`: returns once every byte is written to the connection (after what was queued
    /// before it), or at its timeout.
    public func write(_ bytes: [UInt8], timeout: Duration) async -> WriteResult {
        await withCheckedContinuation { (continuation: CheckedContinuation<WriteResult, Never>) in
            let token = store.withLock { store -> UInt64? in
                guard !store.isClosed, !store.writeClosed else { return nil }
                defer { store.nextToken += 1 }
                store.writes[store.nextToken] = continuation
                return store.nextToken
            }
            guard let token else { return continuation.resume(returning: .notOpen) }
            commands(.write(bytes, token: token, deadline: .now + timeout))
        }
    }

    /// `closeWrite()`: once what was written before is sent, the write side ends (TLS's close_notify, then
    /// TCP's FIN). False when it was closed already or the connection ended.
    public func closeWrite() -> Bool {
        let accepted = store.withLock { store -> Bool in
            guard !store.isClosed, !store.writeClosed else { return false }
            store.writeClosed = true
            return true
        }
        if accepted { commands(.closeWrite) }
        return accepted
    }

    /// `closeRead()`: nothing more is read from the connection; reads get what was received before, then
    /// `atEOF`. False when the connection ended.
    public func closeRead() -> Bool {
        let (accepted, answers) = store.withLock { store -> (Bool, [Answer]) in
            guard !store.isClosed else { return (false, []) }
            store.readEnded = true
            return (true, Self.serveReaders(&store).answers)
        }
        answer(answers, wake: false)
        if accepted { commands(.closeRead) }
        return accepted
    }

    /// `startSecureConnection()`: TLS begins once what was written before is sent. False when the write
    /// side is closed or the connection ended.
    public func startSecureConnection() -> Bool {
        let accepted = store.withLock { !$0.isClosed && !$0.writeClosed }
        if accepted { commands(.startSecureConnection) }
        return accepted
    }

    // MARK: The loop's side

    /// Whether the loop may read more now.
    var acceptsBytes: Bool { store.withLock { !$0.readingStopped && !$0.readEnded } }

    /// Buffers received bytes and answers the reads they satisfy.
    func append(_ bytes: ArraySlice<UInt8>) {
        let (answers, wake) = store.withLock { store in
            store.buffer += bytes
            if store.buffer.count >= Self.bufferLimit { store.readingStopped = true }
            return Self.serveReaders(&store)
        }
        answer(answers, wake: wake)
    }

    /// The peer ended its side: what is buffered is the last.
    func peerEnded() {
        let (answers, wake) = store.withLock { store in
            store.readEnded = true
            return Self.serveReaders(&store)
        }
        answer(answers, wake: wake)
    }

    func resolveWrite(_ token: UInt64, _ result: WriteResult) {
        store.withLock { $0.writes.removeValue(forKey: token) }?.resume(returning: result)
    }

    /// The connection ended: writes waiting fail, reads get what is left.
    func closed() {
        let (writes, answers) = store.withLock { store in
            store.isClosed = true
            defer { store.writes = [:] }
            return (Array(store.writes.values), Self.serveReaders(&store).answers)
        }
        for write in writes { write.resume(returning: .notOpen) }
        answer(answers, wake: false)
    }

    // MARK: Reads

    private typealias Answer = (CheckedContinuation<ReadResult, Never>, ReadResult)

    /// Answers the waiting reads in order while the buffer (or the end) satisfies the first; says whether
    /// the loop, stopped on a full buffer, may read again.
    private static func serveReaders(_ store: inout Store) -> (answers: [Answer], wake: Bool) {
        var answers: [Answer] = []
        while let token = store.order.first, let reader = store.readers[token] {
            let available = store.buffer.count
            let result: ReadResult
            if available > 0 && available >= reader.minBytes {
                result = take(reader.maxBytes, from: &store)
            } else if store.readEnded || store.isClosed {
                result = available > 0 || store.readEnded ? take(reader.maxBytes, from: &store) : .notOpen
            } else if reader.minBytes == 0 {
                result = .data([], atEOF: false)
            } else {
                break
            }
            store.order.removeFirst()
            store.readers[token] = nil
            answers.append((reader.continuation, result))
        }
        let wake = store.readingStopped && store.buffer.count < bufferLimit
        if wake { store.readingStopped = false }
        return (answers, wake)
    }

    private static func take(_ maxBytes: Int, from store: inout Store) -> ReadResult {
        let count = min(maxBytes, store.buffer.count)
        let bytes = Array(store.buffer.prefix(count))
        store.buffer.removeFirst(count)
        return .data(bytes, atEOF: store.readEnded && store.buffer.isEmpty)
    }

    private func timeOut(_ token: UInt64) {
        let (reader, answers, wake) = store.withLock { store in
            store.order.removeAll { $0 == token }
            let reader = store.readers.removeValue(forKey: token)
            let (answers, wake) = Self.serveReaders(&store)  // the reads after it may be answerable now
            return (reader, answers, wake)
        }
        reader?.continuation.resume(returning: .timedOut)
        answer(answers, wake: wake)
    }

    private func answer(_ answers: [Answer], wake: Bool) {
        for (continuation, result) in answers { continuation.resume(returning: result) }
        if wake { commands(.resumeReading) }
    }
}

/// What the API asks of a stream's connection, in order, through the loop's inbox.
enum StreamCommand: Sendable {
    case write([UInt8], token: UInt64, deadline: ContinuousClock.Instant)
    case closeWrite
    case closeRead
    case startSecureConnection
    /// A read made room in a full buffer.
    case resumeReading
}
