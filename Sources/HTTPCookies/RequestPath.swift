/// RFC 6265 §5.1.4's request-path: the path of the request-uri as it is sent, which is what the cookie
/// paths of the server's `Set-Cookie` are written against. That is libcurl's request line, which sends the
/// URL's path as written — percent-encoded octets are never decoded nor re-encoded (`%2F` separates no
/// segments, `%2f` stays lowercase) — but for three changes, made here alike:
///
/// - dot segments removed (RFC 3986 §5.2.4): `/a/../b` is sent as `/b`, as browsers send it too;
/// - a space escaped as `%20` (a request URL has none, but a path that reaches here may);
/// - every octet of a non-ASCII character escaped, in lowercase hex: `/café` is sent as `/caf%c3%a9`.
///
/// `URLComponents.percentEncodedPath` would differ: it keeps dot segments, escapes `|`, `{`, `}` and the
/// like, and escapes in uppercase hex.
enum RequestPath {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The path of absolute `url` (`scheme://authority/path?query#fragment`), `/` when it has none.
    static func of(_ url: String) -> String {
        let text = url.utf8
        let afterScheme = text.firstRange(of: "://".utf8)?.upperBound ?? text.startIndex
        let isDelimiter = { (byte: UInt8) in byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") }
        let authorityEnd = text[afterScheme...].firstIndex(where: isDelimiter) ?? text.endIndex
        let path = text[authorityEnd...].prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard !path.isEmpty else { return "/" }
        var sent: [UInt8] = []
        sent.reserveCapacity(path.count)
        for byte in path {
            if byte == UInt8(ascii: " ") {
                sent += "%20".utf8
            } else if byte >= 0x80 {
                sent += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            } else {
                sent.append(byte)
            }
        }
        return removingDotSegments(String(decoding: sent, as: UTF8.self))
    }

    /// RFC 3986 §5.2.4 on a path that starts with `/`: each `.` segment goes, and each `..` segment goes
    /// with the segment before it; a path that ended in one ends in `/`. `%2E` is no dot, as for libcurl.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains("/.") else { return path }
        var kept: [Substring] = []
        var endsInDotSegment = false
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            endsInDotSegment = segment == "." || segment == ".."
            if segment == ".." {
                _ = kept.popLast()
            } else if segment != "." {
                kept.append(segment)
            }
        }
        return "/" + kept.joined(separator: "/") + (endsInDotSegment && !kept.isEmpty ? "/" : "")
    }
}
