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

    static func isHTTPURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return false }
        return scheme == "http" || scheme == "https"
    }
}
