import Foundation
import JSONCodec

/// Checks of the task request types, next to the shared ones in `Validate`.
extension Validate {
    /// The schemes a task's URL may use unless the caller allows more: URLSession's HTTP loaders only.
    static let webSchemes: Set<String> = ["http", "https"]

    /// Standard base64 with padding (RFC 4648 §4), as the `Base64` schema pattern: no whitespace, no
    /// URL-safe alphabet, no missing `=`. Foundation alone would accept some of these.
    static func base64(_ text: String, field: String) throws(RequestDecodingError) -> Data {
        let bytes = text.utf8
        let isAlphabet: (UInt8) -> Bool = { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "+"), UInt8(ascii: "/"): true
            default: false
            }
        }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard bytes.count % 4 == 0, padding <= 2, bytes.dropLast(padding).allSatisfy(isAlphabet),
            let data = Data(base64Encoded: text)
        else {
            throw .invalidValue(field, "must be standard base64 with padding")
        }
        return data
    }

    /// An RFC 9530 `sha-256=:<base64>:` digest of exactly 32 bytes; returns it unchanged.
    static func sha256Digest(_ value: String, field: String) throws(RequestDecodingError) -> String {
        let prefix = "sha-256=:"
        guard value.hasPrefix(prefix), value.hasSuffix(":"), value.utf8.count > prefix.utf8.count + 1 else {
            throw .invalidValue(field, "must be an RFC 9530 digest: sha-256=:<base64 of 32 bytes>:")
        }
        let encoded = String(value.dropFirst(prefix.count).dropLast())
        guard let digest = try? base64(encoded, field: field), digest.count == 32 else {
            throw .invalidValue(field, "must be an RFC 9530 digest: sha-256=:<base64 of 32 bytes>:")
        }
        return value
    }

    /// An absolute URL whose scheme is in `schemes`. http and https URLs get the full `httpURL` check
    /// (a host, no spaces); other schemes (`ftp`, `file`, `data`, when a caller allows them) must parse.
    static func requestURL(_ value: String, field: String, schemes: Set<String>) throws(RequestDecodingError) {
        let scheme = value.prefix { $0 != ":" }.lowercased()
        guard scheme.count < value.count, schemes.contains(scheme) else {
            let names = schemes.sorted().joined(separator: " or ")
            throw .invalidValue(field, "must be an absolute \(names) URL")
        }
        if scheme == "http" || scheme == "https" {
            try httpURL(value, field: field)
        } else if scheme == "ws" || scheme == "wss" {
            // A WebSocket URL is an http(s) one by another name (RFC 6455 §3): the same checks apply.
            do {
                try httpURL((scheme == "ws" ? "http" : "https") + value.dropFirst(scheme.count), field: field)
            } catch {
                throw .invalidValue(field, "must be an absolute ws or wss URL with an ASCII host, a numeric port and no spaces")
            }
        } else {
            guard value.utf8.count <= 8192, !value.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
                throw .invalidValue(field, "must be at most 8192 characters without spaces or control characters")
            }
        }
        // The character checks above do not catch a broken authority such as `http://[::1`.
        guard URL(string: value) != nil else { throw .invalidValue(field, "is not a valid URL") }
    }

    /// `allHTTPHeaderFields`: the `httpAdditionalHeaders` rules, plus one field per name. Header names are
    /// case-insensitive, so `{"Accept": …, "accept": …}` would leave which one is sent to chance.
    static func requestHeaderFields(_ headers: [String: String], field: String) throws(RequestDecodingError) {
        try headerFields(headers, field: field)
        var seen: Set<String> = []
        for name in headers.keys.sorted() where !seen.insert(name.lowercased()).inserted {
            throw .invalidValue("\(field).\(name)", "repeats a header field name (names are case-insensitive)")
        }
    }
}
