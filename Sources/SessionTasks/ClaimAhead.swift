/// How many tasks a cluster's node holds beyond its transfer slots: enough that its engine still has
/// work queued while a claim for more is on its way to the database and back.
///
/// A node holds twice its slots (the engine's own queue then orders what it holds as a single node's
/// would). When the database is far, the claim that refills that queue takes a few round trips and a
/// commit, during which a busy engine empties it and idles: the node holds, on top, the tasks it
/// completes in two claims' time (its completion rate times the claims' duration, both smoothed), at most
/// twice its slots more. Slow transfers complete at a rate near zero, so they are held exactly as before.
struct ClaimAhead: Sendable {
    /// Completions per second, smoothed.
    private(set) var rate = 0.0
    /// A claim's duration in seconds, smoothed.
    private(set) var claimDuration = 0.0
    /// The completion count and time of the last sample.
    private var last: (completions: Int, at: ContinuousClock.Instant)?

    /// How much a new sample weighs against what was seen before.
    private static let weight = 0.3

    /// A claim pass at `now`: a claim that took `duration`, or none (nil: the node held all it may, and
    /// only its rate is sampled, so a burst that is over does not keep it holding more).
    /// `completions` counts every completion queued since the node started.
    mutating func claimed(completions: Int, at now: ContinuousClock.Instant, duration: Duration?) {
        if let duration { claimDuration += Self.weight * (TaskRunner.seconds(duration) - claimDuration) }
        if let last {
            let interval = TaskRunner.seconds(last.at.duration(to: now))
            if interval > 0 { rate += Self.weight * (Double(completions - last.completions) / interval - rate) }
        }
        last = (completions, now)
    }

    /// The tasks a node with `slots` transfer slots may hold.
    func holding(slots: Int) -> Int {
        let ahead = (rate * claimDuration * 2).rounded()
        return 2 * slots + min(2 * slots, Int(max(0, ahead.isFinite ? ahead : 0)))
    }
}
