public import TransferModels

/// A download's mirrors as its job carries them (`TransferJob.mirrors`): every URL of the file, the
/// request's first, and what they must agree on — the length, and each piece's SHA-256.
public struct MirrorSources: Sendable, Hashable {
    public var urls: [String]
    /// A mirror announcing another length is dropped; nil: the first mirror's length is the file's.
    public var expectedLength: Int64?
    public var pieces: Pieces?

    public struct Pieces: Sendable, Hashable {
        public var length: Int64
        /// One SHA-256 per piece, in order.
        public var sha256: [[UInt8]]

        public init(length: Int64, sha256: [[UInt8]]) {
            (self.length, self.sha256) = (length, sha256)
        }

        /// Piece hashes as stored (`PieceHashes`: lowercase hexadecimal).
        public init(_ hashes: PieceHashes) {
            self.init(length: hashes.length, sha256: hashes.sha256.map(Self.bytes(ofHex:)))
        }

        static func bytes(ofHex hex: String) -> [UInt8] {
            let digits = Array(hex.utf8)
            return stride(from: 0, to: digits.count - 1, by: 2).map { index in
                UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) ?? 0
            }
        }
    }

    public init(urls: [String], expectedLength: Int64? = nil, pieces: Pieces? = nil) {
        (self.urls, self.expectedLength, self.pieces) = (urls, expectedLength, pieces)
    }
}
