import Foundation
import HTTPCaching

// What a response says about ranges: whether a download may be fetched in parts, and what a range
// request's answer holds.

extension ResponseHead {
    /// `Accept-Ranges` lists `bytes` (RFC 9110 §14.3).
    var acceptsByteRanges: Bool {
        value("accept-ranges")?.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "bytes" }
            ?? false
    }

    /// A `Content-Encoding` other than identity: ranges would count the encoded bytes.
    var isContentEncoded: Bool {
        value("content-encoding").map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
    }

    /// The validator ranges can be combined under (RFC 9110 §13.1.5): a strong entity tag, else a
    /// `Last-Modified` that is strong — at least a second before the response's `Date` (§8.8.2.2).
    var strongValidator: String? {
        if let etag = value("etag") { return etag.hasPrefix("W/") ? nil : etag }
        guard let modified = value("last-modified"), let modifiedDate = HTTPDate.parse(modified),
            let date = value("date").flatMap(HTTPDate.parse), date.timeIntervalSince(modifiedDate) >= 1
        else { return nil }
        return modified
    }

    /// `Content-Range: bytes first-last/length` (RFC 9110 §14.4); nil for anything else (`*`, another unit).
    var contentRange: (start: Int64, end: Int64, length: Int64)? {
        guard let value = self.value("content-range"), value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard halves.count == 2, let length = Int64(halves[1]) else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last, last < length else { return nil }
        return (first, last + 1, length)
    }
}
