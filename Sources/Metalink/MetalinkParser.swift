public import Foundation
import FoundationXML

/// Reads a Metalink 4 document (RFC 5854) for the subset a download uses: exactly one `<file>`, its
/// `<size>`, `<hash type="sha-256">`, `<pieces length type="sha-256"><hash>…</pieces>` and `<url priority
/// location>`. Everything else (`<metaurl>`, signatures, other hash types, `<publisher>`…) is ignored.
///
/// XML is read by FoundationXML's `XMLParser` (libxml2) into a small tree first, with external entities
/// not resolved (no file or network read from a client's document) and the document bounded in size.
public enum MetalinkParser {
    /// The Metalink 4 namespace (RFC 5854 §2).
    public static let namespace = "urn:ietf:params:xml:ns:metalink"
    /// The largest document read: a metalink for a huge file with small pieces is still far below.
    public static let maximumDocumentSize = 4 << 20
    /// The most `<url>`s kept (the best ones): a download spreads over a handful of mirrors at most.
    public static let maximumURLs = 16

    public static func parse(_ data: Data) throws(MetalinkError) -> MetalinkFile {
        guard data.count <= maximumDocumentSize else {
            throw MetalinkError(field: "metalink", reason: "is larger than \(maximumDocumentSize) bytes")
        }
        let root = try MetalinkTree.read(data)
        guard root.name == "metalink", root.namespace == namespace else {
            throw MetalinkError(field: "metalink", reason: "is not a Metalink 4 document (root <metalink xmlns=\"\(namespace)\">)")
        }
        let files = root.children(named: "file")
        guard files.count == 1, let file = files.first else {
            throw MetalinkError(field: "file", reason: "must appear exactly once (a task downloads one file), found \(files.count)")
        }
        return try read(file)
    }

    private static func read(_ file: MetalinkTree.Element) throws(MetalinkError) -> MetalinkFile {
        guard let name = file.attributes["name"], !name.isEmpty else {
            throw MetalinkError(field: "file.name", reason: "is required")
        }
        var size: Int64?
        if let element = try file.single("size", at: "file.size") {
            guard let value = Int64(element.text), value >= 0 else {
                throw MetalinkError(field: "file.size", reason: "must be a non-negative integer")
            }
            size = value
        }
        var sha256: Data?
        for hash in file.children(named: "hash") where hash.attributes["type"]?.lowercased() == "sha-256" {
            sha256 = try hexDigest(hash.text, field: "file.hash")
        }
        let pieces = try readPieces(file, size: size)
        let urls = try readURLs(file)
        return MetalinkFile(name: name, size: size, sha256: sha256, pieces: pieces, urls: urls)
    }

    private static func readPieces(_ file: MetalinkTree.Element, size: Int64?) throws(MetalinkError) -> MetalinkPieces? {
        guard let element = file.children(named: "pieces").first(where: { $0.attributes["type"]?.lowercased() == "sha-256" })
        else { return nil }
        guard let length = element.attributes["length"].flatMap(Int64.init), length > 0 else {
            throw MetalinkError(field: "file.pieces.length", reason: "must be a positive integer")
        }
        guard let size else {
            throw MetalinkError(field: "file.size", reason: "is required with piece hashes")
        }
        var hashes: [Data] = []
        for hash in element.children(named: "hash") {
            hashes.append(try hexDigest(hash.text, field: "file.pieces.hash"))
        }
        let expected = size == 0 ? 0 : (size + length - 1) / length
        guard Int64(hashes.count) == expected else {
            throw MetalinkError(
                field: "file.pieces.hash", reason: "must number \(expected) for \(size) bytes in pieces of \(length), found \(hashes.count)"
            )
        }
        return MetalinkPieces(length: length, hashes: hashes)
    }

    private static func readURLs(_ file: MetalinkTree.Element) throws(MetalinkError) -> [MetalinkURL] {
        var urls: [(url: MetalinkURL, order: Int)] = []
        for (order, element) in file.children(named: "url").enumerated() {
            let text = element.text
            let lower = text.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { continue }  // ftp, rsync…: not fetched here
            var priority: Int?
            if let value = element.attributes["priority"] {
                guard let number = Int(value), (1...999_999).contains(number) else {
                    throw MetalinkError(field: "file.url.priority", reason: "must be an integer from 1 to 999999")
                }
                priority = number
            }
            urls.append((MetalinkURL(url: text, priority: priority, location: element.attributes["location"]), order))
        }
        guard !urls.isEmpty else {
            throw MetalinkError(field: "file.url", reason: "must list at least one http or https URL")
        }
        urls.sort { ($0.url.priority ?? Int.max, $0.order) < ($1.url.priority ?? Int.max, $1.order) }
        return urls.prefix(maximumURLs).map(\.url)
    }

    private static func hexDigest(_ text: String, field: String) throws(MetalinkError) -> Data {
        let hex = Array(text.lowercased().utf8)
        guard hex.count == 64 else { throw MetalinkError(field: field, reason: "must be 64 hexadecimal digits (SHA-256)") }
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = nibble(hex[index]), let low = nibble(hex[index + 1]) else {
                throw MetalinkError(field: field, reason: "must be 64 hexadecimal digits (SHA-256)")
            }
            bytes.append(high << 4 | low)
        }
        return Data(bytes)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
