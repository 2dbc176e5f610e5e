import Testing

@testable import TransferEngine

/// Mirrors and pieces as values: which mirror a connection takes, which are dropped, when a piece is
/// complete and where it came from, parts aligned to pieces, a bad piece reopened.
@Suite("Mirror and piece planning")
struct MirrorPlanningTests {
    @Test func connectionsSpreadOverLiveMirrorsPreferredFirst() {
        var table = MirrorTable(urls: ["http://a/f", "http://b/f", "http://c/f"])
        #expect(table.pick(inUse: []) == 0)
        #expect(table.pick(inUse: [0]) == 1)
        #expect(table.pick(inUse: [0, 1]) == 2)
        #expect(table.pick(inUse: [0, 1, 2]) == 0)
        let first = table.drop(1, reason: "status 503")
        let second = table.drop(1, reason: "again")
        #expect(first && !second, "a mirror is dropped once")
        #expect(table.pick(inUse: [0]) == 2)
        #expect(table.aliveCount == 2)
        _ = (table.drop(0, reason: "x"), table.drop(2, reason: "y"))
        #expect(table.pick(inUse: []) == nil)
    }

    @Test func aBadPieceFromOneMirrorCondemnsItFromSeveralOnlyRepeatOffenders() {
        var table = MirrorTable(urls: ["http://a/f", "http://b/f", "http://c/f"])
        let alone = table.rejectPiece(from: [2])
        let shared = table.rejectPiece(from: [0, 1])
        let again = table.rejectPiece(from: [1, 2])
        #expect(alone == [2])
        #expect(shared == [], "either could be at fault: both are counted, neither dropped")
        #expect(again == [1, 2])
    }

    @Test func piecesCompleteWithTheirLastByteWhereverTheBytesCameFrom() {
        var ledger = PieceLedger(fileLength: 10, pieceLength: 4)
        #expect(ledger.count == 3)
        #expect(ledger.range(of: 2) == 8..<10)
        let none = ledger.received(0..<3, from: 0)
        let firstPiece = ledger.received(3..<9, from: 1)
        #expect(none == [] && firstPiece == [0, 1])
        #expect(ledger.sources[0] == [0, 1])
        let lastPiece = ledger.received(9..<10, from: 1)
        #expect(lastPiece == [2])
        ledger.reset(0)
        let again = ledger.received(0..<4, from: 2)
        #expect(again == [0])
        #expect(ledger.sources[0] == [2])
    }

    @Test func aResumedFilesBytesCountButAreNotHashed() {
        var ledger = PieceLedger(fileLength: 10, pieceLength: 4, received: [0..<6])
        let second = ledger.received(6..<8, from: 0)
        let third = ledger.received(8..<10, from: 0)
        #expect(second == [1], "piece 1 completes with bytes of this attempt")
        #expect(third == [2])
    }

    @Test func partsAreAlignedToPieces() {
        let plan = SegmentPlan(length: 1_000_000, minimumPartSize: 65_536, count: 3, alignment: 65_536)
        #expect(plan.parts.allSatisfy { $0.start % 65_536 == 0 })
        #expect(plan.parts.last?.end == 1_000_000)
        #expect(plan.parts.count == 3)
        var stealing = SegmentPlan(length: 1_000_000, minimumPartSize: 65_536, count: 1, alignment: 65_536)
        let own = stealing.nextRequest(for: 0, size: 100_000)
        #expect(own == 0..<100_000)
        let stolen = stealing.nextRequest(for: 1, size: 100_000)
        #expect(stolen.map { $0.lowerBound % 65_536 } == 0, "\(String(describing: stolen))")
    }

    @Test func aReopenedPieceIsAPartOfItsOwnAndTheOwnerGoesOn() {
        var plan = SegmentPlan(length: 100, minimumPartSize: 10, count: 1)
        let whole = plan.nextRequest(for: 0, size: 100)
        #expect(whole == 0..<100)
        _ = plan.receive(60, by: 0)
        plan.reopen(20..<30)
        #expect(plan.parts.map { [$0.start, $0.next, $0.end] } == [[0, 20, 20], [20, 20, 30], [30, 60, 100]])
        #expect(plan.parts[1].owner == nil && plan.parts[2].owner == 0)
        let kept = plan.receive(5, by: 0)?.kept
        #expect(kept == 5, "the owner writes on where it was")
        #expect(plan.receivedBytes == 55)
        let again = plan.nextRequest(for: 1, size: 100)
        #expect(again == 20..<30, "another connection fetches the piece again")
        #expect(SegmentPlan(length: 100, minimumPartSize: 10, ranges: plan.journalRanges) != nil, "still a partition")
    }
}
