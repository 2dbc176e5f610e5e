/// A running attempt's rate, as Foundation's `Progress.throughput` and `estimatedTimeRemaining` show it:
/// the bytes of a sliding window of the last few seconds, from the totals the engine reports (at most every
/// 100 ms, and none while nothing moves).
///
/// Why a window and not the last report's delta: a report carries whatever libcurl's buffers held, so
/// one delta swings by a factor of several from report to report; four seconds of them average that out
/// and still follow a change of pace within a few seconds.
///
/// The window ends at the moment asked about, not at the last report: a transfer that stalls falls to 0
/// within `window` instead of showing its last rate for as long as it hangs.
struct TransferRate: Sendable, Equatable {
    /// How far back the rate looks.
    static let window: Duration = .seconds(4)
    /// Shorter spans than this give no rate yet: the first reports of a transfer are too few to average.
    static let minimumSpan: Duration = .milliseconds(500)

    struct Sample: Sendable, Equatable {
        var at: ContinuousClock.Instant
        var bytes: Int64
    }

    /// What `reading(at:)` answers: bytes per second (whole ones, as `Progress.throughput`), and seconds.
    struct Reading: Sendable, Equatable {
        var throughput: Double
        var estimatedTimeRemaining: Double?

        static let unknown = Reading(throughput: 0, estimatedTimeRemaining: nil)
    }

    /// Oldest first; the oldest is the last one at or before the window's start once the transfer has
    /// run that long, so the window always has an edge to measure from.
    private(set) var samples: [Sample] = []
    /// The total the counted bytes go to; -1 when unknown.
    private(set) var expected: Int64 = -1

    /// A report of the counted total (`bytes`) at `now`.
    mutating func record(bytes: Int64, expected: Int64, at now: ContinuousClock.Instant) {
        self.expected = expected
        // Counted from 0 again (a 200 answered the Range of a resumed download): the old pace says nothing.
        if let last = samples.last, bytes < last.bytes { samples.removeAll() }
        // A report that moved only the other direction's counter adds no information.
        if let last = samples.last, bytes == last.bytes { return }
        samples.append(Sample(at: now, bytes: bytes))
        let start = now - Self.window
        let edge = samples.lastIndex { $0.at <= start } ?? 0
        if edge > 0 { samples.removeFirst(edge) }
    }

    /// The rate over the window ending at `now`, and the time left at that rate when the total is known.
    func reading(at now: ContinuousClock.Instant) -> Reading {
        guard let last = samples.last else { return .unknown }
        let start = now - Self.window
        let edge = samples.last { $0.at <= start } ?? samples[0]
        let span = now - edge.at
        guard span >= Self.minimumSpan else { return .unknown }
        let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) * 1e-18
        let throughput = (Double(last.bytes - edge.bytes) / seconds).rounded()
        guard throughput > 0 else { return .unknown }
        let remaining = expected > 0 ? max(0, expected - last.bytes) : nil
        return Reading(throughput: throughput, estimatedTimeRemaining: remaining.map { Double($0) / throughput })
    }
}
