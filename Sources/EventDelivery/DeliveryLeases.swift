/// Which sessions' webhooks this node delivers, when nodes share the database (PostgreSQL): a session's
/// lanes run here only while this node holds the lease `delivery:<session>`, so one node at a time sends
/// a session's events, in order. On SQLite (one node) every session is this node's and nothing is leased.
///
/// The lanes of a session exist in memory only while its lease is held: they are opened (their cursor
/// read from the store) after the lease is taken, and dropped when it is lost or released, so a lane
/// never resumes from a cursor another node has moved since.
struct DeliveryLeases {
    /// Whether leases are taken at all (nodes share the database).
    let isEnabled: Bool
    let duration: Duration
    /// Sessions leased here, and until when: from before the write that took or renewed the lease, so
    /// never later than the expiry the other nodes read.
    var heldUntil: [String: ContinuousClock.Instant] = [:]
    /// Sessions with work whose lease is to be taken, and which of their lanes to open then.
    var wanted: [String: WantedLanes] = [:]
    /// Sessions another node delivers: not asked for again before then.
    var elsewhereUntil: [String: ContinuousClock.Instant] = [:]
    /// After a failed write of leases, none is tried before then.
    var nextAttempt = ContinuousClock.now

    /// The lanes to open once a session's lease is taken.
    struct WantedLanes {
        var delegate = false
        /// The completion lane's tenant, when it has work.
        var completionTenant: String?
    }

    init(isEnabled: Bool, duration: Duration) {
        self.isEnabled = isEnabled
        self.duration = duration
    }

    /// The lease's name in the `lease` table.
    static func name(of sessionId: String) -> String { "delivery:" + sessionId }

    /// A lease is used only until a sixth of its duration before it expires: the margin covers a turn of
    /// the coordinator and the clocks' disagreement, so the next node never starts before this one stops.
    private var margin: Duration { duration / 6 }

    /// Whether this node may deliver the session's events now.
    func holds(_ sessionId: String, at now: ContinuousClock.Instant = .now) -> Bool {
        guard isEnabled else { return true }
        guard let until = heldUntil[sessionId] else { return false }
        return until - margin > now
    }

    /// Whether another node delivered the session when last asked, recently.
    func isElsewhere(_ sessionId: String, at now: ContinuousClock.Instant = .now) -> Bool {
        guard isEnabled, let until = elsewhereUntil[sessionId] else { return false }
        return until > now
    }

    /// Sessions whose lease ran out (not renewed in time): their lanes stop.
    func lost(at now: ContinuousClock.Instant) -> [String] {
        heldUntil.compactMap { session, until in until - margin <= now ? session : nil }
    }

    /// Sessions whose lease is past half its time: renewed now.
    func dueForRenewal(at now: ContinuousClock.Instant) -> [String] {
        heldUntil.compactMap { session, until in until - now < duration / 2 ? session : nil }
    }

    /// How long an idle lane keeps its session's lease before it is released (a third of the lease, at
    /// most the configured idle lifetime): another node writing the session's next events then delivers
    /// them itself without waiting for this one.
    func idleLifetime(_ configured: Duration) -> Duration {
        isEnabled ? min(configured, duration / 3) : configured
    }
}
