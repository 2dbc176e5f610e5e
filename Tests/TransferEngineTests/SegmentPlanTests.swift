import Testing

@testable import TransferEngine

/// The plan of a segmented download as a value: splits, requests, work stealing, journals.
@Suite("Segment plan")
struct SegmentPlanTests {
    @Test func equalPartsNoneSmallerThanTheMinimum() {
        let plan = SegmentPlan(length: 1_000_003, minimumPartSize: 100_000, count: 3)
        #expect(plan.parts.map(\.start) == [0, 333_334, 666_668])
        #expect(plan.parts.map(\.end) == [333_334, 666_668, 1_000_003])
        #expect(SegmentPlan(length: 250_000, minimumPartSize: 100_000, count: 8).parts.count == 2)
        #expect(SegmentPlan(length: 99_999, minimumPartSize: 100_000, count: 8).parts.count == 1)
    }

    @Test func aConnectionContinuesItsPartThenTakesAnotherThenSteals() {
        var plan = SegmentPlan(length: 1000, minimumPartSize: 100, count: 2)
        #expect(plan.nextRequest(for: 1, size: 300) == 0..<300)
        #expect(plan.receive(300, by: 1)?.kept == 300)
        plan.requestEnded(by: 1)
        #expect(plan.nextRequest(for: 1, size: 300) == 300..<500, "the rest of its own part")
        #expect(plan.nextRequest(for: 2, size: 200) == 500..<700, "the part nobody fetches")
        // Connection 3 finds no free part: it takes the second half of what nobody asked for (700..<1000),
        // and asks for its share of the 300 bytes left unasked among the three connections.
        #expect(plan.nextRequest(for: 3, size: 1000) == 850..<950)
        #expect(plan.part(of: 2)?.end == 850, "the victim's part now ends where the thief's starts")
        // Nothing left worth a request: 700..<850 is unrequested but smaller than two minimum parts.
        #expect(plan.nextRequest(for: 4, size: 100) == nil)
        #expect(!plan.hasWorkForAnotherConnection)
    }

    @Test func theFirstResponseIsCutWhereverItsPartEnds() {
        var plan = SegmentPlan(length: 1000, minimumPartSize: 100, count: 2)
        plan.assign(startingAt: 0, to: 0)
        let first = plan.receive(150, by: 0)
        #expect(first?.kept == 150 && first?.partIsDone == false)
        #expect(plan.nextRequest(for: 1, size: 500) == 500..<925, "its share of the 850 bytes nobody asked for")
        // All of the first response's part past what it received can be taken: it is cut anywhere.
        #expect(plan.nextRequest(for: 2, size: 500) == 325..<466)
        let second = plan.receive(400, by: 0)
        #expect(second?.kept == 175 && second?.partIsDone == true, "bytes past the part belong to the next")
    }

    @Test func aReleasedPartWaitsForTheNextConnection() {
        var plan = SegmentPlan(length: 1000, minimumPartSize: 100, count: 2)
        _ = plan.nextRequest(for: 1, size: 500)
        _ = plan.receive(120, by: 1)
        plan.release(1)
        #expect(plan.nextRequest(for: 7, size: 50) == 120..<170)
        #expect(plan.receivedBytes == 120)
    }

    @Test func journalRangesMergeFinishedNeighboursAndReadBack() throws {
        var plan = SegmentPlan(length: 900, minimumPartSize: 100, count: 3)
        for owner in 1...2 {
            _ = plan.nextRequest(for: owner, size: 300)
            _ = plan.receive(300, by: owner)
        }
        _ = plan.nextRequest(for: 3, size: 300)
        _ = plan.receive(40, by: 3)
        let ranges = plan.journalRanges
        #expect(ranges.map { [$0.start, $0.next, $0.end] } == [[0, 600, 600], [600, 640, 900]])
        let back = try #require(SegmentPlan(length: 900, minimumPartSize: 100, ranges: ranges))
        #expect(back.receivedBytes == 640)
        #expect(SegmentPlan(length: 900, minimumPartSize: 100, ranges: [(0, 10, 500), (400, 400, 900)]) == nil, "overlap")
        #expect(SegmentPlan(length: 900, minimumPartSize: 100, ranges: [(0, 10, 500)]) == nil, "short")
    }

    @Test func requestSizesFollowTheRate() {
        let policy = SegmentPolicy(maximumConnections: 8, minimumPartSize: 1 << 20)
        #expect(policy.requestSize(rate: nil) == 4 << 20)
        #expect(policy.requestSize(rate: 2_000_000, roundTrip: 0.01) == 2_000_000, "a second's worth")
        #expect(policy.requestSize(rate: 2_000_000, roundTrip: 0.2) == 8_000_000, "20 round trips")
        #expect(policy.requestSize(rate: 100_000) == 1 << 20, "at least a minimum part")
        #expect(policy.requestSize(rate: 1e12) == 64 << 20)
    }
}
