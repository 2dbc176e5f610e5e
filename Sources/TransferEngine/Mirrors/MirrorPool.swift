import Crypto
import Foundation

/// The mirrors of one download attempt, shared by its primary transfer and its part connections: which
/// are used (`MirrorTable`), the length they must agree on, and the piece hashes the file's ranges are
/// checked against as they fill (`PieceLedger`). Drops and rejected pieces are reported to the observer
/// (`task.didDropMirror`, `task.didRejectPiece`).
///
/// Confined to the engine's loop thread, as its transfers are.
final class MirrorPool {
    let id: TransferID
    let observer: any TransferObserver
    private(set) var table: MirrorTable
    let expectedLength: Int64?
    let pieces: MirrorSources.Pieces?
    /// Set once the download is fetched in ranges (its length known).
    var ledger: PieceLedger?
    /// The mirror whose response gave the download's validator: only requests to it carry `If-Range`
    /// (strong entity tags of different servers are not comparable; the length and hashes are).
    var validatorMirror: Int?
    /// Pieces that failed their hash so far; past `rejectionLimit` the download fails.
    private(set) var rejections = 0

    init(id: TransferID, sources: MirrorSources, observer: any TransferObserver) {
        self.id = id
        self.observer = observer
        self.table = MirrorTable(urls: sources.urls)
        self.expectedLength = sources.expectedLength
        self.pieces = sources.pieces
    }

    var rejectionLimit: Int { (ledger?.count ?? 0) + 16 }

    /// Drops mirror `index` (once) and says why.
    func drop(_ index: Int, reason: String) {
        guard table.drop(index, reason: reason) else { return }
        observer.transfer(id, didDropMirror: table.url(index), reason: reason)
    }

    /// The mirror a connection should use next, given the others' (`inUse`); nil when none is left.
    func pick(inUse: [Int]) -> Int? { table.pick(inUse: inUse) }

    /// The length a mirror's answer shows, checked: nil when it agrees, else why it does not.
    func disagreement(length: Int64?, fileLength: Int64?) -> String? {
        guard let length else { return "announced no length" }
        if let expectedLength, length != expectedLength { return "length \(length), expected \(expectedLength)" }
        if let fileLength, length != fileLength { return "length \(length), other mirrors \(fileLength)" }
        return nil
    }

    /// Starts counting pieces for a file of `length` (the bytes in `received` are in it already).
    func beginPieces(length: Int64, received: [Range<Int64>] = []) {
        guard let pieces, ledger == nil else { return }
        ledger = PieceLedger(fileLength: length, pieceLength: pieces.length, received: received)
    }

    /// `range` of `file` was written from mirror `mirror`: each piece it completed is hashed; the ranges of
    /// those that failed are returned (to be fetched again), each reported and its mirror judged.
    func written(_ range: Range<Int64>, from mirror: Int, in file: SegmentFile) -> [Range<Int64>] {
        guard let pieces, var ledger else { return [] }
        let completed = ledger.received(range, from: mirror)
        var failed: [Range<Int64>] = []
        for index in completed where index < pieces.sha256.count {
            let bytes = ledger.range(of: index)
            guard Self.sha256(of: file, bytes) != pieces.sha256[index] else { continue }
            rejections += 1
            let sources = ledger.sources[index]
            ledger.reset(index)
            failed.append(bytes)
            observer.transfer(id, didRejectPiece: index, mirror: table.url(sources.min() ?? mirror))
            for condemned in table.rejectPiece(from: sources) { drop(condemned, reason: "piece \(index) failed its sha-256") }
        }
        if rejections > rejectionLimit {  // the hashes themselves may be wrong: no mirror is trusted any more
            for index in table.mirrors.indices { drop(index, reason: "\(rejections) pieces failed their sha-256") }
        }
        self.ledger = ledger
        return failed
    }

    /// SHA-256 of `range` of the file, read back (nil when it cannot be read: the piece counts as bad).
    private static func sha256(of file: SegmentFile, _ range: Range<Int64>) -> [UInt8]? {
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        var offset = range.lowerBound
        while offset < range.upperBound {  // bounded: each turn reads at least a byte, or returns
            let want = Int(min(Int64(buffer.count), range.upperBound - offset))
            let read = buffer.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, want, off_t(offset)) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return nil }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<read])) }
            offset += Int64(read)
        }
        return Array(hasher.finalize())
    }
}

/// A transfer's side of its download's mirrors: the pool (nil: the job names no mirrors), the mirror its
/// current request goes to, and why its last answer was refused.
struct MirrorRole {
    var pool: MirrorPool?
    var current = 0
    /// The answer's head showed the mirror cannot be used (status, length): why, until the request ends.
    var refusal: String?
}
