/// Which pieces of a file (Metalink `<pieces>`) have all their bytes, and from which mirrors they came:
/// a piece is hashed the moment its last byte is written, wherever its bytes came from. A value, tested
/// without a network.
struct PieceLedger: Hashable, Sendable {
    let fileLength: Int64
    let pieceLength: Int64
    /// Bytes of each piece in the file.
    private(set) var filled: [Int64]
    /// The mirrors each piece's bytes came from.
    private(set) var sources: [Set<Int>]

    /// A ledger for a file whose bytes `received` (ranges) are in it already — a resumed download's,
    /// counted but never hashed (its whole-file digest still is).
    init(fileLength: Int64, pieceLength: Int64, received: [Range<Int64>] = []) {
        self.fileLength = fileLength
        self.pieceLength = max(1, pieceLength)
        let count = Int((fileLength + self.pieceLength - 1) / self.pieceLength)
        filled = [Int64](repeating: 0, count: count)
        sources = [Set<Int>](repeating: [], count: count)
        for range in received { _ = add(range, from: nil) }
    }

    var count: Int { filled.count }

    /// The bytes of piece `index`.
    func range(of index: Int) -> Range<Int64> {
        let start = Int64(index) * pieceLength
        return start..<min(fileLength, start + pieceLength)
    }

    /// `range` was written from mirror `mirror`: the pieces whose last byte it was.
    mutating func received(_ range: Range<Int64>, from mirror: Int) -> [Int] {
        add(range, from: mirror)
    }

    /// Piece `index` failed its hash: it counts as empty again (it is fetched again).
    mutating func reset(_ index: Int) {
        filled[index] = 0
        sources[index] = []
    }

    private mutating func add(_ range: Range<Int64>, from mirror: Int?) -> [Int] {
        guard !range.isEmpty, count > 0 else { return [] }
        var completed: [Int] = []
        let first = Int(range.lowerBound / pieceLength)
        let last = Int((range.upperBound - 1) / pieceLength)
        for index in first...min(last, count - 1) {
            let piece = self.range(of: index)
            let overlap = min(piece.upperBound, range.upperBound) - max(piece.lowerBound, range.lowerBound)
            guard overlap > 0 else { continue }
            let wasComplete = filled[index] >= Int64(piece.count)
            filled[index] += overlap
            if let mirror { sources[index].insert(mirror) }
            if !wasComplete && filled[index] >= Int64(piece.count) && mirror != nil { completed.append(index) }
        }
        return completed
    }
}
