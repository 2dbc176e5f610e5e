public import Foundation

/// The one file a Metalink 4 document (RFC 5854) describes, as a download task uses it: where it can be
/// fetched (best first), its size, its whole-file SHA-256 and its piece hashes.
public struct MetalinkFile: Sendable, Hashable {
    /// `<file name>`: a relative path the publisher suggests (the service names its files itself).
    public var name: String
    /// `<size>`, when given.
    public var size: Int64?
    /// `<hash type="sha-256">` (hashes of other types are not checked).
    public var sha256: Data?
    /// `<pieces type="sha-256">`; nil when absent or of another type.
    public var pieces: MetalinkPieces?
    /// The `<url>`s with an http or https URL, best first: lower `priority` first, document order among
    /// equals, those without a priority last (RFC 5854 §4.2.16: 1 is the highest priority).
    public var urls: [MetalinkURL]

    public init(name: String, size: Int64?, sha256: Data?, pieces: MetalinkPieces?, urls: [MetalinkURL]) {
        (self.name, self.size, self.sha256, self.pieces, self.urls) = (name, size, sha256, pieces, urls)
    }
}

/// `<pieces length type>`: the SHA-256 of each `length`-byte piece of the file, in order (the last may be
/// shorter).
public struct MetalinkPieces: Sendable, Hashable {
    public var length: Int64
    public var hashes: [Data]

    public init(length: Int64, hashes: [Data]) {
        (self.length, self.hashes) = (length, hashes)
    }
}

/// `<url priority location>`.
public struct MetalinkURL: Sendable, Hashable {
    public var url: String
    public var priority: Int?
    public var location: String?

    public init(url: String, priority: Int? = nil, location: String? = nil) {
        (self.url, self.priority, self.location) = (url, priority, location)
    }
}

/// A document that is not a Metalink 4 document this service can use: `field` names the element or
/// attribute at fault (`file.size`, `file.pieces.hash`, `url`…), `reason` says what is wrong.
public struct MetalinkError: Error, Sendable, Hashable, CustomStringConvertible {
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        (self.field, self.reason) = (field, reason)
    }

    public var description: String { "\(field) \(reason)" }
}
