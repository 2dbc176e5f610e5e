/// One direction of a flow's share as a token bucket: `rate` bytes per second accrue, a callback may
/// take bytes while the balance is positive (the balance may go below zero by the last chunk: the
/// average still holds), and it then waits until the balance is positive again.
///
/// It also measures what the flow took over the last share period, and whether the limit held it back,
/// for the next division (`demand`).
struct TokenBucket {
    /// Bytes per second; nil: unlimited (nothing is held back).
    private(set) var rate: Double?
    private(set) var balance: Double = 0
    private var lastRefill = ContinuousClock.now
    /// Bytes taken since the period began, and whether a callback found the balance empty in it.
    private(set) var takenInPeriod: Int64 = 0
    private(set) var wasHeld = true  // a new flow wants as much as it gets until measured
    private var periodStart = ContinuousClock.now

    /// The most a flow may save up while it takes less than its share: a tenth of a second of it (at
    /// least 16 KiB), so a flow that idled cannot burst far past its limit afterwards.
    var capacity: Double { max((rate ?? 0) * 0.1, 16 * 1024) }

    var allows: Bool { rate == nil || balance > 0 }

    /// Whether a callback may take bytes now; a refusal marks the period as held back.
    mutating func admit() -> Bool {
        if allows { return true }
        refill(at: .now)  // what accrued since the last turn of the loop
        if allows { return true }
        wasHeld = true
        return false
    }

    mutating func take(_ bytes: Int) {
        takenInPeriod += Int64(bytes)
        guard rate != nil else { return }
        balance -= Double(bytes)
        if balance <= 0 { wasHeld = true }
    }

    mutating func refill(at now: ContinuousClock.Instant) {
        defer { lastRefill = now }
        guard let rate else { return }
        balance = min(capacity, balance + rate * (now - lastRefill).asSeconds)
    }

    /// A new share: the balance saved is kept up to the new capacity (a new limit starts with a full one).
    mutating func setRate(_ new: Double?, at now: ContinuousClock.Instant) {
        refill(at: now)
        if rate == nil, new != nil { balance = .infinity }
        rate = new
        balance = min(balance, capacity)
    }

    /// How long until the balance is positive again; nil when it is (or there is no limit).
    var timeUntilAllowed: Duration? {
        guard let rate, balance <= 0 else { return nil }
        return .seconds((-balance + 1) / rate)
    }

    /// What the flow would take in the next period: unbounded when the limit held it back (or it is new),
    /// else half as much again as it took (so a flow speeding up finds room), at least 64 kB/s. Starts the
    /// next period.
    mutating func demandAndRestart(at now: ContinuousClock.Instant) -> (demand: Double?, measured: Double) {
        let seconds = max((now - periodStart).asSeconds, 0.001)
        let measured = Double(takenInPeriod) / seconds
        let demand = wasHeld ? nil : max(measured * 1.5, 64_000)
        (takenInPeriod, wasHeld, periodStart) = (0, false, now)
        return (demand, measured)
    }
}

extension Duration {
    var asSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
