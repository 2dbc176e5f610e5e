/// One page of a session's or a task's events, read in one snapshot with what the reader needs to know
/// about what follows.
public struct EventPage: Sendable {
    /// Events after the requested sequence, oldest first.
    public var events: [EventRecord]
    /// More events after the last one were already stored when the page was read.
    public var hasMore: Bool
    /// The session is invalidated and nothing is stored after this page: no event will ever follow.
    public var isFinal: Bool
    /// The session's newest `sequence` when the page was read (0: none yet); nil on a task's page.
    public var lastSequence: Int64? = nil

    public init(events: [EventRecord], hasMore: Bool, isFinal: Bool, lastSequence: Int64? = nil) {
        (self.events, self.hasMore, self.isFinal, self.lastSequence) = (events, hasMore, isFinal, lastSequence)
    }
}
