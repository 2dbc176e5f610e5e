import Foundation
import JSONCodec

/// The query parameters the storage routes (cookies, cache) share.
enum StorageQuery {
    /// `?since=` (RFC 3339) of `removeCookies(since:)` and `removeCachedResponses(since:)`; nil when absent.
    static func since(_ request: HTTPRequest) throws -> Date? {
        guard let text = request.queryValue("since") else { return nil }
        guard let date = try? StrictJSONDecoder().decode(Date.self, from: JSONValue.string(text)) else {
            throw Problem.invalidValue("since", "must be an RFC 3339 date-time")
        }
        return date
    }

    /// `?url=`, required and an absolute http(s) URL.
    static func url(_ request: HTTPRequest) throws -> String {
        guard let url = request.queryValue("url") else { throw RequestDecodingError.missingField("url") }
        guard isHTTPURL(url) else { throw Problem.invalidValue("url", "must be an absolute http or https URL") }
        return url
    }

    /// The contract's `HTTPURL`: `http://` or `https://` (any case), a non-empty authority, no space or
    /// control character, at most 8 KiB. (A URL that no cache key or cookie can come from then finds
    /// nothing, rather than being refused.)
    static func isHTTPURL(_ text: String) -> Bool {
        guard text.utf8.count <= 8192, !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return false }
        let lower = text.lowercased()
        let rest = lower.hasPrefix("https://") ? lower.dropFirst(8) : lower.hasPrefix("http://") ? lower.dropFirst(7) : nil
        guard let rest, let first = rest.first else { return false }
        return first != "/"
    }
}
