/// The bandwidth limits of one node as `/metrics` shows them: the operator's limits in force now, and the
/// transfers a limit holds, each way.
public struct BandwidthSummary: Sendable, Equatable {
    /// The service's and each tenant's limit now (timetables evaluated).
    public var service = RateLimitRates.unlimited
    public var tenant = RateLimitRates.unlimited
    public var receive = Direction()
    public var send = Direction()

    public init() {}

    /// One direction's limited transfers.
    public struct Direction: Sendable, Equatable {
        /// Running transfers (a segmented download counts once) a limit holds this way.
        public var limitedTransfers = 0
        /// The sum of their shares, and of what they moved over the last quarter second, bytes per second.
        public var shares = 0.0
        public var throughput = 0.0
        /// How many times a limit paused a transfer's callback, since the engine started.
        public var holds = 0

        public init() {}
    }
}
