import Foundation

/// What the API and the events show of secrets a client put in a request: a URL's password and the
/// value of `Authorization` and `Proxy-Authorization` fields are masked (the scheme word stays, so
/// `Basic *****` still says which). The service keeps the real values to send them; it never shows them.
public enum Redaction {
    public static let mask = "*****"

    /// `scheme://user:password@host/…` → `scheme://user:*****@host/…`; any other URL as it is.
    public static func url(_ text: String) -> String {
        // Byte by byte, not `range(of:)`: this runs for every task's URL, and Foundation's search showed in
        // the small-task profile.
        let bytes = text.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[colon...].starts(with: "://".utf8)
        else { return text }
        let authorityStart = bytes.index(colon, offsetBy: 3)
        let authorityEnd =
            bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.endIndex
        guard let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")),
            let colon = bytes[authorityStart..<at].firstIndex(of: UInt8(ascii: ":"))
        else { return text }
        return String(text[..<bytes.index(after: colon)]) + mask + String(text[at...])
    }

    /// Whether a header field carries a credential.
    public static func isSecret(field name: String) -> Bool {
        asciiCaseInsensitiveEquals(name, "authorization") || asciiCaseInsensitiveEquals(name, "proxy-authorization")
    }

    /// Field names are ASCII (RFC 9110), so this is `caseInsensitiveCompare` without Foundation's cost.
    static func asciiCaseInsensitiveEquals(_ name: String, _ lowercased: String) -> Bool {
        name.utf8.count == lowercased.utf8.count
            && zip(name.utf8, lowercased.utf8).allSatisfy { ($0 >= 65 && $0 <= 90 ? $0 + 32 : $0) == $1 }
    }

    /// `Basic dXNlcjpwYXNz` → `Basic *****`; a value without a scheme word → `*****`.
    public static func fieldValue(_ value: String) -> String {
        guard let space = value.firstIndex(of: " ") else { return mask }
        return String(value[..<space]) + " " + mask
    }

    public static func fields(_ fields: [String: String]) -> [String: String] {
        guard fields.keys.contains(where: isSecret(field:)) else { return fields }
        var result = fields
        for (name, value) in fields where isSecret(field: name) { result[name] = fieldValue(value) }
        return result
    }
}

extension URLRequestSnapshot {
    /// The request as the API shows it: no password, no credential field.
    public var redacted: URLRequestSnapshot {
        var copy = self
        copy.url = Redaction.url(url)
        copy.allHTTPHeaderFields = Redaction.fields(allHTTPHeaderFields)
        if let main = mainDocumentURL { copy.mainDocumentURL = Redaction.url(main) }
        return copy
    }
}

extension HTTPResponseSnapshot {
    /// The response as the API shows it: its URL without a password.
    public var redacted: HTTPResponseSnapshot {
        var copy = self
        copy.url = Redaction.url(url)
        return copy
    }
}
