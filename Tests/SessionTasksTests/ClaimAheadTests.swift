import Testing

@testable import SessionTasks

/// How many tasks a cluster's node holds: twice its slots, and more only while it completes tasks fast and
/// its claims take long (a database far away).
@Suite("ClaimAhead")
struct ClaimAheadTests {
    private let start = ContinuousClock.now

    @Test func aNewOrSlowNodeHoldsTwiceItsSlots() {
        var ahead = ClaimAhead()
        #expect(ahead.holding(slots: 1) == 2 && ahead.holding(slots: 16) == 32)
        // Slow downloads: one completion in ten seconds, claims of 2 ms.
        ahead.claimed(completions: 0, at: start, duration: .milliseconds(2))
        ahead.claimed(completions: 1, at: start + .seconds(10), duration: .milliseconds(2))
        #expect(ahead.holding(slots: 1) == 2)
    }

    @Test func aBusyNodeFarFromItsDatabaseHoldsWhatItCompletesInTwoClaims() {
        var ahead = ClaimAhead()
        // 1,000 completions a second, claims of 8 ms, steadily: about 16 more than twice 16.
        for step in 0..<40 {
            ahead.claimed(completions: step * 10, at: start + .milliseconds(step * 10), duration: .milliseconds(8))
        }
        #expect((46...50).contains(ahead.holding(slots: 16)), "\(ahead.holding(slots: 16))")
        // Never more than four times its slots, however far.
        for step in 40..<80 {
            ahead.claimed(completions: step * 10, at: start + .milliseconds(step * 10), duration: .milliseconds(500))
        }
        #expect(ahead.holding(slots: 16) == 64)
    }

    @Test func aFullNodeStillSamplesItsRate() {
        var ahead = ClaimAhead()
        for step in 0..<40 {
            ahead.claimed(completions: step * 10, at: start + .milliseconds(step * 10), duration: .milliseconds(8))
        }
        #expect(ahead.holding(slots: 16) > 32)
        // Full of slow transfers: no claim runs, no completion comes.
        for step in 0..<40 {
            ahead.claimed(completions: 400, at: start + .milliseconds(400) + .milliseconds(100 * (step + 1)), duration: nil)
        }
        #expect(ahead.holding(slots: 16) == 32)
    }

    @Test func itComesBackWhenTheNodeQuietensDown() {
        var ahead = ClaimAhead()
        for step in 0..<40 {
            ahead.claimed(completions: step * 10, at: start + .milliseconds(step * 10), duration: .milliseconds(8))
        }
        for step in 0..<40 {
            ahead.claimed(completions: 400, at: start + .milliseconds(400) + .seconds(step + 1), duration: .milliseconds(8))
        }
        #expect(ahead.holding(slots: 16) == 32)
    }
}
