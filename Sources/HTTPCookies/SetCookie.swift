public import Foundation

/// A `Set-Cookie` header as RFC 6265 §5.2 (and 6265bis, where browsers agree) reads it: lenient about
/// syntax, it ignores only what 6265bis ignores (control characters, oversized cookies and attributes);
/// the storage rules (`CookieJar.store`) decide what is kept.
public struct SetCookie: Sendable, Hashable {
    public var name: String
    public var value: String
    /// `Expires`, when it parsed (§5.1.1).
    public var expires: Date?
    /// `Max-Age` in seconds; it wins over `Expires`. 0 or less expires the cookie at once.
    public var maxAge: Int64?
    /// `Domain`, lowercased, without its leading dot; nil when absent or empty.
    public var domain: String?
    /// `Path` when it starts with `/`; nil means the request's default path.
    public var path: String?
    public var isSecure = false
    public var isHTTPOnly = false
    /// `SameSite`: `lax`, `strict` or `none`; nil when absent or another value.
    public var sameSite: String?

    /// 6265bis §5.6 (The Set-Cookie Header Field; §5.7 in later drafts): a cookie whose name and value
    /// together are longer is ignored, as browsers do, rather than kept and sent back to every request.
    public static let maximumNameAndValueOctets = 4096
    /// 6265bis §5.6: an attribute whose value is longer is ignored; the cookie and its other attributes stay.
    public static let maximumAttributeValueOctets = 1024

    /// Parses one header value; nil when it names no cookie (no name and no value) or 6265bis ignores it.
    public init?(_ header: String) {
        // 6265bis §5.6 step 1: a control character but HTAB, anywhere, ignores this line only. A NUL never
        // gets here: libcurl fails a response with one in any header field, as RFC 9110 §5.5 allows.
        guard !header.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        let (pair, attributes) = Self.split(header, at: ";")
        // 6265bis, as browsers do: a pair without `=` is a cookie with an empty name.
        let (rawName, rawValue) = pair.contains("=") ? Self.split(pair, at: "=") : ("", pair)
        name = Self.trimmed(rawName)
        value = Self.trimmed(rawValue)
        guard !name.isEmpty || !value.isEmpty else { return nil }
        guard name.utf8.count + value.utf8.count <= Self.maximumNameAndValueOctets else { return nil }
        for attribute in attributes.split(separator: ";", omittingEmptySubsequences: true) {
            let (key, rawArgument) = Self.split(Substring(attribute), at: "=")
            let argument = Self.trimmed(rawArgument)
            guard argument.utf8.count <= Self.maximumAttributeValueOctets else { continue }
            switch Self.trimmed(key).lowercased() {
            case "expires":
                if let date = CookieDate.parse(argument) { expires = date }
            case "max-age":
                if let seconds = Self.maxAge(argument) { maxAge = seconds }
            case "domain":
                let bare = argument.hasPrefix(".") ? String(argument.dropFirst()) : argument
                domain = bare.isEmpty ? nil : bare.lowercased()
            case "path":
                path = argument.hasPrefix("/") ? argument : nil
            case "secure":
                isSecure = true
            case "httponly":
                isHTTPOnly = true
            case "samesite":
                let policy = argument.lowercased()
                sameSite = ["lax", "strict", "none"].contains(policy) ? policy : nil
            default:
                break
            }
        }
    }

    /// When the cookie expires, as of `now`: `Max-Age` first, then `Expires`; nil for a session cookie.
    public func expiresDate(now: Date) -> Date? {
        if let maxAge {
            return maxAge <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(min(maxAge, 400 * 86_400)))
        }
        // 6265bis: no cookie lives longer than 400 days.
        return expires.map { min($0, now.addingTimeInterval(400 * 86_400)) }
    }

    /// `Max-Age`'s value: an optional `-`, then digits only; anything else ignores the attribute.
    private static func maxAge(_ text: String) -> Int64? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let value = Int64(digits) else { return text.hasPrefix("-") ? Int64.min : Int64.max }  // out of range
        return text.hasPrefix("-") ? -value : value
    }

    private static func split(_ text: some StringProtocol, at separator: Character) -> (Substring, Substring) {
        let text = Substring(text)
        guard let index = text.firstIndex(of: separator) else { return (text, "") }
        return (text[..<index], text[text.index(after: index)...])
    }

    private static func trimmed(_ text: Substring) -> String {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
