/// The rate of a transfer over its last few seconds, as a download manager shows it.
///
/// The average since the start hides a stall and a burst alike; the rate over a window of recent samples
/// follows both within a few seconds, and the time left computed from it stops promising an end that a
/// stall has pushed back.
public struct ThroughputMeter: Sendable {
    private struct Sample: Sendable {
        var seconds: Double
        var bytes: Int64
    }

    /// How far back the rate looks.
    public let window: Double
    private var samples: [Sample] = []

    /// A meter whose rate looks `window` seconds back.
    public init(window: Double = 5) {
        self.window = window
    }

    /// Records that `bytes` have arrived in total at `seconds` since some fixed start.
    public mutating func record(bytes: Int64, at seconds: Double) {
        samples.append(Sample(seconds: seconds, bytes: bytes))
        // Keep one sample older than the window, so the rate covers the whole window.
        while samples.count > 2, samples[1].seconds <= seconds - window {
            samples.removeFirst()
        }
    }

    /// Bytes per second over the window; nil until two samples are at least a tenth of a second apart.
    public var bytesPerSecond: Double? {
        guard let first = samples.first, let last = samples.last, last.seconds - first.seconds >= 0.1 else { return nil }
        return Double(last.bytes - first.bytes) / (last.seconds - first.seconds)
    }

    /// Seconds until `expected` bytes at the current rate; nil when the rate or the length is unknown or zero.
    public func secondsLeft(expected: Int64?) -> Double? {
        guard let expected, expected > 0, let last = samples.last, let rate = bytesPerSecond, rate > 0 else { return nil }
        return Double(max(0, expected - last.bytes)) / rate
    }
}
