import Foundation
import SessionTasks
import TransferModels
import WebSockets

/// One caller's socket joined to a webSocket task's connection (`GET /v1/tasks/{id}/socket`). The service
/// is the WebSocket server to the caller (its frames come masked, ours go unmasked) and stays the origin's
/// client through the task's channel:
///
/// - each message from the caller is the task's `send` (the channel's path, so the caller's messages and
///   the API's go in one order); at most `sendLimit` bytes are on their way to the origin, after which the
///   caller's socket is not read (its TCP window closes);
/// - each message from the origin is taken from the channel's buffer as room appears in `output`, and
///   acknowledged once written to the caller's socket: a slow caller leaves messages in the buffer, which
///   then stops the reading from the origin — the backpressure holds end to end, memory does not grow;
/// - the caller's pings are answered here; its close frame closes the task with its code and reason, and
///   the task's end is echoed back; the task's end (the origin's close, a drop, a cancel) goes to the
///   caller as a close frame with the origin's code and reason once every message before it was written.
///
/// Phases: relaying → (the caller's close) awaitingTaskClose → closing (our close frame queued; the
/// caller's answer, its leaving or a deadline ends it) → finished. Confined to the relay loop's thread.
final class WebSocketRelay {
    private enum Phase {
        case relaying
        /// The caller's close frame came and was passed on: the task's end is awaited to echo it.
        case awaitingTaskClose(deadline: ContinuousClock.Instant, code: WebSocketCloseCode?, reason: String)
        /// Our close frame is queued; `answered`: the caller's close frame came already.
        case closing(deadline: ContinuousClock.Instant, answered: Bool)
        case finished
    }

    /// Bytes of frames waiting for the caller's socket before no more messages are taken from the buffer.
    static let outputLimit = 256 * 1024
    /// Bytes of the caller's messages on their way to the origin before the caller's socket is not read.
    static let sendLimit = 1 << 20
    /// Bytes read from the caller per turn, so one fast caller cannot keep the others waiting.
    static let readPerTurn = 256 * 1024
    /// How long the task's close handshake may take before the caller's close is echoed anyway (the
    /// engine's own is 10 s).
    static let taskCloseTimeout: Duration = .seconds(15)
    /// How long the caller has to answer our close frame.
    static let closeTimeout: Duration = .seconds(5)

    let connection: UpgradedConnection
    let channel: TaskWebSocket
    /// The tenant's `streams` slot, held while the relay lives.
    let slot: StreamSlot
    private var phase = Phase.relaying
    private var parser: WebSocketFrameParser
    private var assembler: WebSocketMessageAssembler
    private var output: [UInt8] = []
    private var outputSent = 0
    /// Bytes written to the caller's socket and queued for it since the start, and the messages in
    /// `output` by the total their frame ends at: each is acknowledged once `written` passes it.
    private var written = 0
    private var queued = 0
    private var unacknowledged: [(end: Int, sequence: Int64)] = []
    private var lastTaken: Int64 = 0
    private var acknowledged: Int64 = 0
    /// Bytes of the caller's messages given to the channel and not yet written to the origin (decreased
    /// by the sends' completions, on the engine's loop thread).
    private let sending = LockedBox(0)
    private let wake: @Sendable () -> Void

    init(connection: UpgradedConnection, channel: TaskWebSocket, slot: StreamSlot, wake: @escaping @Sendable () -> Void) {
        self.connection = connection
        self.channel = channel
        self.slot = slot
        self.wake = wake
        parser = WebSocketFrameParser(role: .server, maximumPayload: channel.maximumMessageSize)
        assembler = WebSocketMessageAssembler(maximumMessageSize: channel.maximumMessageSize)
        parser.append(connection.initialBytes)
    }

    var isFinished: Bool {
        if case .finished = phase { true } else { false }
    }

    /// The poll events the relay waits for: reading unless held back, writing while bytes wait.
    var pollEvents: Int16 {
        (wantsToRead ? Int16(POLLIN) : 0) | (outputSent < output.count ? Int16(POLLOUT) : 0)
    }

    /// Until its deadline, if it has one.
    var deadline: ContinuousClock.Instant? {
        switch phase {
        case .awaitingTaskClose(let deadline, _, _), .closing(let deadline, _): deadline
        case .relaying, .finished: nil
        }
    }

    /// Relaying, the caller is read while its pongs have room in `output` and its messages room on their
    /// way to the origin: otherwise its socket is not even polled for reading (that would spin).
    private var wantsToRead: Bool {
        switch phase {
        case .relaying: output.count - outputSent < Self.outputLimit && sending.withLock { $0 } < Self.sendLimit
        case .closing(_, let answered): !answered
        case .awaitingTaskClose, .finished: false
        }
    }

    /// One turn: writes what waits, takes the origin's messages while there is room, reads the caller's
    /// frames (unless held back), and acts on the ends. `hangUp`: poll reported an error or hang-up (what
    /// can still be read is read first).
    func service(hangUp: Bool, now: ContinuousClock.Instant) {
        defer { if hangUp && !isFinished { callerLeft() } }
        write()
        takeMessages(now: now)
        write()
        if wantsToRead { read(now: now) }
        write()
        takeMessages(now: now)
        write()
        endIfDone(now: now)
    }

    /// Graceful shutdown: the caller gets a going-away close frame; the task is left to the engine's stop.
    func shutDown(now: ContinuousClock.Instant) {
        switch phase {
        case .relaying, .awaitingTaskClose:
            queueClose(WebSocketFrameEncoder.closePayload(code: .goingAway, reason: "the service is stopping"), now: now, answered: false)
            write()
        case .closing, .finished: break
        }
    }

    // MARK: The origin's side

    /// Acknowledges what was written, takes the next messages into `output` while it has room, and once
    /// the task's connection ended and every message was taken, queues the close frame with its code.
    private func takeMessages(now: ContinuousClock.Instant) {
        guard case .relaying = phase else {
            _ = channel.relayMessages(after: acknowledged, limit: 0)  // acknowledges, frees the buffer
            return
        }
        let page = channel.relayMessages(after: acknowledged, limit: 64)
        var drained = true
        for message in page.items where message.sequence > lastTaken {
            guard output.count - outputSent < Self.outputLimit else {
                drained = false
                break
            }
            let frame =
                if let text = message.string {
                    WebSocketFrame(opcode: .text, payload: Array(text.utf8))
                } else {
                    WebSocketFrame(opcode: .binary, payload: message.data ?? [])
                }
            queue(WebSocketFrameEncoder.serverFrame(frame))
            unacknowledged.append((queued, message.sequence))
            lastTaken = message.sequence
        }
        if page.items.count == 64 { drained = false }
        if drained, page.state == .closed {
            queueClose(Self.closePayload(for: channel.close), now: now, answered: false)
        }
    }

    /// The close frame that tells the caller how the task's connection ended: the origin's code and reason
    /// (or the one the caller or the API asked for); an empty one when the origin's had no code; 1014 (bad
    /// gateway) when the origin's connection ended without a close frame, a code never sent.
    static func closePayload(for close: WebSocketClose?) -> [UInt8] {
        let code = WebSocketCloseCode(rawValue: close?.code ?? WebSocketCloseCode.abnormalClosure.rawValue)
        if code == .noStatusReceived { return [] }
        if code.mayBeSent { return WebSocketFrameEncoder.closePayload(code: code, reason: close?.reason ?? "") }
        return WebSocketFrameEncoder.closePayload(
            code: WebSocketCloseCode(rawValue: 1014), reason: "the origin's connection ended without a close frame")
    }

    // MARK: The caller's side

    /// Acts on the frames already read (reading may have stopped among them), then reads more while
    /// the caller may be read.
    private func read(now: ContinuousClock.Instant) {
        guard takeFrames(now: now) else { return }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while total < Self.readPerTurn, wantsToRead {
            let count = buffer.withUnsafeMutableBytes { recv(connection.socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                return callerLeft()
            }
            guard count > 0 else { return callerLeft() }
            total += count
            parser.append(buffer[..<count])
            guard takeFrames(now: now) else { return }
        }
    }

    /// The frames in the parser while the caller may be read; false when the caller broke the protocol.
    private func takeFrames(now: ContinuousClock.Instant) -> Bool {
        do {
            while wantsToRead, let frame = try parser.nextFrame() {
                guard let inbound = try assembler.receive(frame) else { continue }
                handle(inbound, now: now)
            }
            return true
        } catch {
            // The caller broke the protocol: it hears why, and the task closes with the same code.
            let payload = WebSocketFrameEncoder.closePayload(code: error.closeCode, reason: error.reason)
            if case .relaying = phase { channel.close(code: error.closeCode.rawValue, reason: error.reason) }
            queueClose(payload, now: now, answered: true)
            return false
        }
    }

    private func handle(_ inbound: WebSocketInbound, now: ContinuousClock.Instant) {
        switch (phase, inbound) {
        case (.relaying, .message(let message)):
            let object =
                switch message {
                case .string(let text): WebSocketMessageObject(sequence: 0, string: text)
                case .data(let bytes): WebSocketMessageObject(sequence: 0, data: bytes)
                }
            let length = object.length
            sending.withLock { $0 += length }
            channel.send(object) { [sending, wake] _ in
                // A message the task could no longer send (it is closing) is not retried: its end follows.
                sending.withLock { $0 -= length }
                wake()
            }
        case (.relaying, .ping(let payload)):
            queue(WebSocketFrameEncoder.serverFrame(WebSocketFrame(opcode: .pong, payload: payload)))
        case (.relaying, .close(let code, let reason)):
            // A close without a code closes the task normally (1005 is never sent).
            channel.close(code: (code ?? .normalClosure).rawValue, reason: reason)
            phase = .awaitingTaskClose(deadline: now + Self.taskCloseTimeout, code: code, reason: reason)
        case (.closing(let deadline, _), .close):
            phase = .closing(deadline: deadline, answered: true)
        default:
            break  // pongs; anything after our close frame (§5.5.1)
        }
    }

    /// The caller's socket ended (or failed) without the close handshake: a task still open is closed
    /// going away, as a proxy whose client left closes its side.
    private func callerLeft() {
        if case .relaying = phase { channel.close(code: WebSocketCloseCode.goingAway.rawValue, reason: "the relayed client left") }
        output = []
        outputSent = 0
        phase = .finished
    }

    // MARK: Output and ends

    private func queue(_ bytes: [UInt8]) {
        output += bytes
        queued += bytes.count
    }

    private func queueClose(_ payload: [UInt8], now: ContinuousClock.Instant, answered: Bool) {
        queue(WebSocketFrameEncoder.serverFrame(WebSocketFrame(opcode: .close, payload: payload)))
        phase = .closing(deadline: now + Self.closeTimeout, answered: answered)
    }

    private func write() {
        while outputSent < output.count {
            let count = output.withUnsafeBytes { bytes in
                send(connection.socket, bytes.baseAddress! + outputSent, bytes.count - outputSent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }
                return callerLeft()
            }
            outputSent += count
            written += count
        }
        if outputSent == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 1 << 16)
            outputSent = 0
        }
        var acknowledgedCount = 0
        for message in unacknowledged {
            guard message.end <= written else { break }
            acknowledged = message.sequence
            acknowledgedCount += 1
        }
        unacknowledged.removeFirst(acknowledgedCount)
    }

    private func endIfDone(now: ContinuousClock.Instant) {
        switch phase {
        case .awaitingTaskClose(let deadline, let code, let reason):
            if channel.state == .closed {
                queueClose(Self.closePayload(for: channel.close), now: now, answered: true)
            } else if deadline <= now {
                queueClose(code.map { WebSocketFrameEncoder.closePayload(code: $0, reason: reason) } ?? [], now: now, answered: true)
            } else {
                return
            }
            write()
            endIfDone(now: now)
        case .closing(let deadline, let answered):
            if (answered && outputSent == output.count) || deadline <= now { phase = .finished }
        case .relaying, .finished:
            break
        }
    }
}

@available(*, unavailable) extension WebSocketRelay: Sendable {}
