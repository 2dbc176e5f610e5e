/// Which mirrors of a download are still used and which connection goes to which: a value, so the rules
/// are tested without a network.
///
/// A mirror is dropped for good (this attempt) the first time it fails — no connection, an error
/// status, another length, an answer that is not the range asked for, a piece whose hash is wrong — and
/// the connections spread over those left, the fewest connections first, the earlier (preferred) one
/// among equals.
struct MirrorTable: Hashable, Sendable {
    struct Mirror: Hashable, Sendable {
        let url: String
        /// Why it was dropped; nil while it is used.
        var dropped: String?
        /// Pieces it helped to fetch that failed their hash.
        var rejectedPieces = 0
    }

    private(set) var mirrors: [Mirror]

    init(urls: [String]) {
        mirrors = urls.map { Mirror(url: $0) }
    }

    var aliveCount: Int { mirrors.count { $0.dropped == nil } }

    func isAlive(_ index: Int) -> Bool {
        mirrors.indices.contains(index) && mirrors[index].dropped == nil
    }

    func url(_ index: Int) -> String { mirrors[index].url }

    /// The mirror a new or switching connection should use, given the mirrors the other connections use
    /// (`inUse`, one entry per connection): the live one with the fewest, the earliest among equals.
    func pick(inUse: [Int]) -> Int? {
        var counts = [Int](repeating: 0, count: mirrors.count)
        for index in inUse where mirrors.indices.contains(index) { counts[index] += 1 }
        return mirrors.indices.filter { mirrors[$0].dropped == nil }.min { (counts[$0], $0) < (counts[$1], $1) }
    }

    /// Drops `index` with `reason`; false when it was dropped already (no second event).
    mutating func drop(_ index: Int, reason: String) -> Bool {
        guard isAlive(index) else { return false }
        mirrors[index].dropped = reason
        return true
    }

    /// A piece fetched from `sources` failed its hash: which of them to drop. A piece from one mirror
    /// condemns it; a piece from several drops those that had a bad piece before (each is counted), so
    /// a good mirror sharing one bad piece with a corrupting one is not dropped for it.
    mutating func rejectPiece(from sources: Set<Int>) -> [Int] {
        let live = sources.filter { mirrors.indices.contains($0) }.sorted()
        for index in live { mirrors[index].rejectedPieces += 1 }
        return live.count == 1 ? live : live.filter { mirrors[$0].rejectedPieces > 1 }
    }
}
