public import Foundation

/// One request as ``FixtureOrigin`` received it, recorded once its body was read (or the read failed).
public struct RecordedRequest: Sendable {
    /// The method as sent, e.g. `GET`.
    public let method: String
    /// The request target: path plus `?query` when there is one, e.g. `/bytes/10?seed=2`.
    public let target: String
    /// The path part of ``target``.
    public let path: String
    /// The raw query after `?`, or "" when there is none.
    public let query: String
    /// Header fields in arrival order, names as the client spelled them.
    public let headers: [(name: String, value: String)]
    /// Body bytes received, after removing any chunked framing.
    public let bodySize: Int
    /// Lowercase hex SHA-256 of the body bytes received.
    public let bodySHA256: String
    /// False when the connection ended before the whole body arrived (e.g. a cancelled upload), or when
    /// the origin answered before reading it (`Expect: 100-continue` to a `/status/4xx`).
    public let bodyComplete: Bool
    /// Which accepted connection carried it, numbered from 1 in accept order: equal IDs mean keep-alive reuse.
    public let connectionID: Int
    /// When the request head had been read.
    public let receivedAt: Date

    /// The first value of the header field `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return self.headers.first { $0.name.lowercased() == wanted }?.value
    }
}

extension FixtureOrigin {
    /// When the connection `id` (a ``RecordedRequest/connectionID``) ended: its last byte sent or the
    /// client gone; nil while it is open.
    public func connectionEnded(_ id: Int) -> Date? {
        self.core.state.withLock { $0.connectionEnds[id] }
    }
}
