// What the connections of running tasks answer — a webSocket task's channel, a stream task's, a body being
// received — as values every layer shares: the engine gives them, the task layer passes them on, the
// control plane turns them into answers.

/// A webSocket task's connection, as its channel sees it.
public enum WebSocketConnectionState: Sendable, Equatable {
    case open
    /// A close frame was sent (`cancel(with:reason:)`); the peer's ends it. No more messages go.
    case closing
    case closed
}

/// What happened to a message given to a webSocket channel's `send`.
public enum WebSocketSendResult: Sendable, Equatable {
    /// Written to the connection (`send`'s completion handler with no error).
    case sent
    /// The connection is closing or closed: the message was not sent.
    case notOpen
}

/// How a webSocket channel's ping ended.
public enum WebSocketPingResult: Sendable, Equatable {
    case pong
    case notOpen
    case timedOut
}

/// Whether a relay took a webSocket channel's buffer.
public enum WebSocketRelayAttachment: Sendable, Equatable {
    case attached
    /// Another relay holds the buffer.
    case taken
    /// The connection is closing or closed.
    case notOpen
}

/// How a WebSocket connection ended: the close frame's code and reason, 1006 (`abnormalClosure`) when
/// there was none.
public struct WebSocketClose: Sendable, Hashable {
    public var code: Int
    public var reason: String

    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }
}

/// What a stream task's read got.
public enum StreamReadResult: Sendable, Equatable {
    /// Bytes (possibly none), and whether the read side has ended with them (nothing more will come).
    case data([UInt8], atEOF: Bool)
    /// The timeout passed with fewer than `minBytes` there: URLSession's -1001 (nothing was consumed).
    case timedOut
    /// The connection ended without an end of the read side (failed, cancelled), nothing left to read.
    case notOpen
}

/// What a stream task's write got.
public enum StreamWriteResult: Sendable, Equatable {
    /// Every byte was written to the connection.
    case written
    /// The timeout passed first: URLSession's -1001 (what was not written yet is dropped).
    case timedOut
    /// The write side is closed, or the connection ended.
    case notOpen
}

/// How the transfer left a body being received.
public enum ReceivedBodyEnd: Sendable, Hashable {
    /// Every byte arrived. The task is complete only once its completion is recorded (its digest
    /// could still fail it), so readers wait for that before they end.
    case received
    /// The body was dropped: the transfer failed or stopped, or its response was replaced (a retry
    /// with credentials, the next part of `multipart/x-mixed-replace`, `becomeDownload`).
    case discarded
}

/// What a reader of a body being received sees at one moment.
public struct ReceivedBodyStatus: Sendable, Hashable {
    /// Bytes readable from offset 0.
    public var length: Int64
    public var end: ReceivedBodyEnd?

    public init(length: Int64, end: ReceivedBodyEnd?) {
        self.length = length
        self.end = end
    }
}
