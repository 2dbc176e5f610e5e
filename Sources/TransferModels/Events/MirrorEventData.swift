/// `task.didDropMirror`: `{"task", "url", "reason"}` — the download stopped using mirror `url` (no
/// connection, an error status, another length, not the range asked for, a piece that failed its hash).
public struct DropMirrorEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var url: String
    public var reason: String

    public init(task: TaskSummary, url: String, reason: String) {
        (self.task, self.url, self.reason) = (task, url, reason)
    }
}

/// `task.didRejectPiece`: `{"task", "index", "mirror"}` — Metalink piece `index` (from 0) fetched from
/// `mirror` failed its SHA-256 and is fetched again from another mirror.
public struct RejectPieceEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var index: Int
    public var mirror: String

    public init(task: TaskSummary, index: Int, mirror: String) {
        (self.task, self.index, self.mirror) = (task, index, mirror)
    }
}
