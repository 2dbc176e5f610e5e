import TransferEngine
import TransferModels

extension JobFactory {
    /// A download's stored sources as its job's mirrors; nil without mirrors (a metalink URL not read yet
    /// has none: its job fetches the document).
    static func mirrorSources(_ sources: TransferSources?) -> MirrorSources? {
        guard let sources, !sources.mirrors.isEmpty else { return nil }
        let pieces = sources.pieces.map { pieces in
            MirrorSources.Pieces(length: pieces.length, sha256: pieces.sha256.map(bytes(ofHex:)))
        }
        return MirrorSources(urls: sources.mirrors, expectedLength: sources.expectedLength, pieces: pieces)
    }

    /// Lowercase hexadecimal (as stored) as bytes.
    static func bytes(ofHex hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { index in
            UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) ?? 0
        }
    }
}
