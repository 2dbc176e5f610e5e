import CMicroHTTPD
import Foundation
import SessionTasks

/// A request body passed on as it arrives (`PUT /v1/tasks/{id}/body` of a streamed upload) into the
/// task's `StreamedUploadBody`, never held whole: MHD hands chunks to `receive`; what the stream has no room
/// for stays in MHD's buffer while the connection is suspended, and the stream's writable handler
/// resumes it once the origin took bytes. So a slow origin slows the client, and memory stays bounded.
///
/// When the route could not tell from memory where the body goes, the decision comes later (`resolve`
/// or `refuse`): until then no byte is read and the connection waits, suspended.
///
/// `@unchecked Sendable`: the mutable fields are under `lock`, taken by the MHD thread in `receive` and
/// `awaitDecision`, by the stream's consumer (the engine's loop thread) and by the deciding task in
/// `wake`; `lock` is taken before the stream's own lock, never after.
final class StreamedRequestBody: @unchecked Sendable {
    private let connection: OpaquePointer
    private let lock = NSLock()
    private var target: StreamedUploadBody?
    /// Why the body is not taken (decided after the headers), answered in place of a 204.
    private var refusal: Problem?
    /// The connection is suspended, waiting for room in `target` or for the decision.
    private var suspended = false
    /// A wake-up came between a look that found no room and the suspension: look again instead.
    private var wokeEarly = false
    /// The whole body was passed on (`finish`), so a connection that closes now loses nothing.
    private var isComplete = false
    /// The request ended before its body did: a stream decided later fails at once.
    private var isAbandoned = false
    /// Consecutive looks (`checkForHangup`) that found the client's socket at its end, with no byte
    /// handed over in between.
    private var looksAtEnd = 0

    /// A body going into `target`; nil: its destination is decided later (`refuse`, or none: it stays
    /// undecided only until the request ends).
    init(target: StreamedUploadBody?, connection: OpaquePointer) {
        self.target = target
        self.connection = connection
        target?.onWritable { [weak self] in self?.wake() }
    }

    enum Received {
        /// Taken, or kept in MHD's buffer with the connection suspended until there is room.
        case passedOn
        /// Not taken: answer with this problem and discard the rest.
        case refused(Problem)
    }

    /// Passes on what `target` takes of the chunk; leaves the rest in `count` (MHD offers it again after
    /// the resume) and suspends the connection.
    func receive(_ data: UnsafeRawBufferPointer, count: UnsafeMutablePointer<Int>) -> Received {
        lock.lock()
        defer { lock.unlock() }
        // MHD is still handing over bytes, so it is not stuck: the looks that saw an end of stream count
        // again from zero (a slow stream suspends and resumes between looks, and the client that
        // half-closed after its body must not be taken for one leaving).
        looksAtEnd = 0
        var offset = 0
        while offset < data.count {
            if let refusal {
                count.pointee = 0
                return .refused(refusal)
            }
            if let target {
                offset += target.offer(UnsafeRawBufferPointer(rebasing: data[offset...]))
                if offset == data.count { break }
                if target.isAbandoned {
                    count.pointee = 0
                    return .refused(.conflict("the task no longer takes its streamed body: it ended"))
                }
            }
            if wokeEarly {
                wokeEarly = false
                continue
            }
            suspended = true
            MHD_suspend_connection(connection)
            break
        }
        count.pointee = data.count - offset
        return .passedOn
    }

    /// The last access-handler call: nil when the body went into the stream (its end passed on), the
    /// refusal to answer, or — while undecided — the connection is suspended until the decision.
    func finish() -> Received? {
        lock.lock()
        defer { lock.unlock() }
        if let refusal { return .refused(refusal) }
        guard let target else {
            suspended = true
            MHD_suspend_connection(connection)
            return .passedOn
        }
        isComplete = true
        target.finish()
        return nil
    }

    /// The body goes into `target` after all: the waiting connection is read again.
    func resolve(_ target: StreamedUploadBody) {
        lock.lock()
        self.target = target
        let clientLeft = isAbandoned
        lock.unlock()
        // The client may have gone while the decision was pending (MHD saw its close before any byte of
        // the body was read): the upload then fails now rather than wait for a body that cannot come.
        if clientLeft { return target.fail() }
        target.onWritable { [weak self] in self?.wake() }
        wake()
    }

    /// The body is not taken: the waiting connection is answered with `problem`.
    func refuse(_ problem: Problem) {
        lock.lock()
        refusal = problem
        lock.unlock()
        wake()
    }

    /// The request ended before its body did (the client went away): the transfer fails with -1021.
    func abandon() {
        lock.lock()
        defer { lock.unlock() }
        isAbandoned = true
        if !isComplete { target?.fail() }
    }

    enum Watch { case watching, done }

    /// `ClientHangupWatch`'s look: while MHD is reading the body (not suspended, not complete), a client
    /// socket found at its end twice in a row is shut down so MHD reads that end (see `ClientHangupWatch`).
    func checkForHangup() -> Watch {
        lock.lock()
        defer { lock.unlock() }
        guard !isComplete, !isAbandoned else { return .done }
        guard !suspended else {
            looksAtEnd = 0  // MHD holds bytes not taken yet: it reads on once resumed
            return .watching
        }
        let socket = cmhd_connection_socket(connection)
        guard socket >= 0 else { return .watching }
        var byte: UInt8 = 0
        let peeked = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        let atEnd = peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        guard atEnd else {
            looksAtEnd = 0
            return .watching
        }
        looksAtEnd += 1
        guard looksAtEnd >= ClientHangupWatch.looksBeforeHangup else { return .watching }
        shutdown(socket, Int32(SHUT_RDWR))
        return .done
    }

    private func wake() {
        lock.lock()
        defer { lock.unlock() }
        guard suspended else {
            wokeEarly = true
            return
        }
        suspended = false
        MHD_resume_connection(connection)
    }
}
