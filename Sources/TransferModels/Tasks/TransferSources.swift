import Foundation
public import Metalink

/// Where a download's bytes may come from beyond its request's URL (beyond URLSession): `mirrors` — the
/// same file at other URLs, the request's URL first —, the length they must agree on, the piece hashes
/// each range is checked against, and the Metalink document (RFC 5854) they were read from. Stored with
/// the task (`sources`), given to its jobs.
public struct TransferSources: Codable, Sendable, Hashable {
    /// Every URL of the file, the request's first; the order is the order of preference.
    public var mirrors: [String]
    /// `expectedLength` (or the Metalink `<size>`): a mirror announcing another length is dropped.
    public var expectedLength: Int64?
    /// The Metalink `<pieces type="sha-256">`.
    public var pieces: PieceHashes?
    /// The Metalink document the sources came from, as given (`{"url"}` or `{"blobId"}`); with a URL,
    /// `mirrors` is empty until an attempt has fetched and read it.
    public var metalink: MetalinkInput?

    public init(mirrors: [String], expectedLength: Int64? = nil, pieces: PieceHashes? = nil, metalink: MetalinkInput? = nil) {
        (self.mirrors, self.expectedLength, self.pieces, self.metalink) = (mirrors, expectedLength, pieces, metalink)
    }

    /// The most URLs one download names: more spread no better and cost a connection attempt each.
    public static let maximumMirrors = 16
}

/// A file's piece hashes: the SHA-256 of each `length`-byte piece in order (the last may be shorter), as
/// lowercase hexadecimal.
public struct PieceHashes: Codable, Sendable, Hashable {
    public var length: Int64
    public var sha256: [String]

    public init(length: Int64, sha256: [String]) {
        (self.length, self.sha256) = (length, sha256)
    }
}

/// `metalink` as a client sends it: exactly one of `{"url": "https://…"}` (fetched when the task starts)
/// or `{"blobId": "blb_…"}` (an uploaded document, read when the task is created).
public struct MetalinkInput: Codable, Sendable, Hashable {
    public var url: String?
    public var blobId: String?

    public init(url: String? = nil, blobId: String? = nil) {
        (self.url, self.blobId) = (url, blobId)
    }
}

/// A Metalink document's contents as the task takes them (read by the control plane from a blob, or by
/// the task layer from a fetched document): its URLs best first, its size, its whole-file digest
/// (`sha-256=:<base64>:`) and its piece hashes.
public struct MetalinkContents: Sendable, Hashable {
    public var urls: [String]
    public var size: Int64?
    public var digest: String?
    public var pieces: PieceHashes?

    public init(urls: [String], size: Int64?, digest: String?, pieces: PieceHashes?) {
        (self.urls, self.size, self.digest, self.pieces) = (urls, size, digest, pieces)
    }
}

extension MetalinkContents {
    /// A parsed document as a task takes it: the whole-file hash as `sha-256=:<base64>:`, piece hashes
    /// as lowercase hexadecimal.
    public init(_ file: MetalinkFile) {
        self.init(
            urls: file.urls.map(\.url), size: file.size, digest: file.sha256.map { "sha-256=:\($0.base64EncodedString()):" },
            pieces: file.pieces.map { PieceHashes(length: $0.length, sha256: $0.hashes.map(Self.hex)) })
    }

    private static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: data.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }
}
