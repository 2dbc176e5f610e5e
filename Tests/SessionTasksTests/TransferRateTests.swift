import Testing

@testable import SessionTasks

/// The sliding-window rate behind `progress.throughput` and `estimatedTimeRemaining`, fed reports as the
/// engine makes them (every 100 ms) on a clock of its own.
@Suite("TransferRate")
struct TransferRateTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    /// Reports every 100 ms from `from` to `to` (ms) of a body arriving at `pace` B/s from `bytes`.
    func feed(
        _ rate: inout TransferRate, from: Int, to: Int, pace: Int64, bytes: Int64 = 0, expected: Int64 = 10_000_000
    ) -> Int64 {
        var total = bytes
        for ms in stride(from: from, through: to, by: 100) {
            total = bytes + pace * Int64(ms - from) / 1000
            rate.record(bytes: total, expected: expected, at: at(ms))
        }
        return total
    }

    @Test func aSteadyPaceReadsAsThatPaceWithTheTimeLeftAtIt() throws {
        var rate = TransferRate()
        let received = feed(&rate, from: 0, to: 6000, pace: 400_000)
        let reading = rate.reading(at: at(6050))
        #expect(abs(reading.throughput - 400_000) < 400_000 * 0.02, "\(reading)")
        let left = try #require(reading.estimatedTimeRemaining)
        #expect(abs(left - Double(10_000_000 - received) / reading.throughput) < 0.001)
    }

    @Test func noRateUntilHalfASecondOfReports() {
        var rate = TransferRate()
        #expect(rate.reading(at: at(0)) == .unknown)
        rate.record(bytes: 40_000, expected: 1_000_000, at: at(0))
        #expect(rate.reading(at: at(100)) == .unknown, "one report is no pace")
        _ = feed(&rate, from: 100, to: 300, pace: 400_000, bytes: 40_000, expected: 1_000_000)
        #expect(rate.reading(at: at(350)) == .unknown)
        #expect(rate.reading(at: at(600)).throughput > 0)
    }

    @Test func aStalledTransferFallsToNothingWithinTheWindow() {
        var rate = TransferRate()
        _ = feed(&rate, from: 0, to: 5000, pace: 400_000)
        let running = rate.reading(at: at(5000)).throughput
        let stalling = rate.reading(at: at(7000)).throughput
        #expect(stalling > 0 && stalling < running * 0.6, "\(running) then \(stalling)")
        #expect(rate.reading(at: at(5000) + TransferRate.window + .milliseconds(1)) == .unknown)
    }

    @Test func aChangeOfPaceShowsWithinTheWindow() {
        var rate = TransferRate()
        let slow = feed(&rate, from: 0, to: 5000, pace: 100_000)
        _ = feed(&rate, from: 5000, to: 9200, pace: 500_000, bytes: slow)
        let reading = rate.reading(at: at(9200))
        #expect(abs(reading.throughput - 500_000) < 500_000 * 0.03, "\(reading)")
    }

    @Test func aCounterThatStartsOverForgetsTheOldPace() {
        var rate = TransferRate()
        _ = feed(&rate, from: 0, to: 3000, pace: 1_000_000)
        // A 200 answered the Range of a resumed download: counted from 0 again, at a tenth of the pace.
        _ = feed(&rate, from: 3100, to: 4000, pace: 100_000)
        let reading = rate.reading(at: at(4000))
        #expect(abs(reading.throughput - 100_000) < 100_000 * 0.05, "\(reading)")
    }

    @Test func noTimeLeftWithoutAnExpectedSize() {
        var rate = TransferRate()
        _ = feed(&rate, from: 0, to: 2000, pace: 400_000, expected: -1)
        let reading = rate.reading(at: at(2000))
        #expect(reading.throughput > 0)
        #expect(reading.estimatedTimeRemaining == nil)
    }

    @Test func theSamplesStayWithinTheWindow() {
        var rate = TransferRate()
        _ = feed(&rate, from: 0, to: 120_000, pace: 400_000)
        // 4 s of reports every 100 ms, and the one before them that the window measures from.
        #expect(rate.samples.count <= 42, "\(rate.samples.count)")
        #expect(abs(rate.reading(at: at(120_000)).throughput - 400_000) < 400_000 * 0.02)
    }
}
