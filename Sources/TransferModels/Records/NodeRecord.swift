public import Foundation

/// A node sharing the database, as its row says: when it last wrote its heartbeat and how loaded it was.
public struct NodeRecord: Sendable, Equatable {
    public var id: String
    public var startedAt: Date
    public var heartbeatAt: Date
    /// Set by a graceful shutdown: its tasks may be taken over at once.
    public var stoppedAt: Date?
    /// The tasks it was running or waiting for a transfer slot at its last heartbeat.
    public var activeTasks: Int
    public var maximumTransfers: Int
    /// The unfinished tasks the database shows it running now.
    public var claimedTasks: Int

    public init(
        id: String, startedAt: Date, heartbeatAt: Date, stoppedAt: Date?, activeTasks: Int, maximumTransfers: Int, claimedTasks: Int
    ) {
        (self.id, self.startedAt, self.heartbeatAt, self.stoppedAt) = (id, startedAt, heartbeatAt, stoppedAt)
        (self.activeTasks, self.maximumTransfers, self.claimedTasks) = (activeTasks, maximumTransfers, claimedTasks)
    }

    /// Whether its leases still hold at `now`: it has not stopped and its heartbeat is younger than `lease`.
    public func isLive(at now: Date, lease: TimeInterval) -> Bool {
        stoppedAt == nil && heartbeatAt > now.addingTimeInterval(-lease)
    }
}
