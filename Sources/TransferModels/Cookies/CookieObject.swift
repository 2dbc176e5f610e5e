public import Foundation
public import HTTPCookies
public import JSONCodec

/// An `HTTPCookie` as the API shows it (`GET /v1/sessions/{id}/cookies`). `domain` starts with a dot for
/// a cookie its subdomains get too, as `HTTPCookie.domain` does; `portList` is always null (RFC 2965's
/// port restriction is not supported).
public struct CookieObject: Encodable, Sendable, Hashable {
    public var name: String
    public var value: String
    public var domain: String
    public var path: String
    public var expiresDate: Date?
    public var isSecure: Bool
    public var isHTTPOnly: Bool
    public var isSessionOnly: Bool
    public var sameSitePolicy: String?

    public init(
        name: String, value: String, domain: String, path: String, expiresDate: Date?, isSecure: Bool,
        isHTTPOnly: Bool, sameSitePolicy: String?
    ) {
        (self.name, self.value, self.domain, self.path) = (name, value, domain, path)
        (self.expiresDate, self.isSecure, self.isHTTPOnly) = (expiresDate, isSecure, isHTTPOnly)
        self.isSessionOnly = expiresDate == nil
        self.sameSitePolicy = sameSitePolicy
    }

    enum CodingKeys: String, CodingKey {
        case name, value, domain, path, expiresDate, isSecure, isHTTPOnly, isSessionOnly, sameSitePolicy, portList
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(value, forKey: .value)
        try c.encode(domain, forKey: .domain)
        try c.encode(path, forKey: .path)
        try c.encode(expiresDate, forKey: .expiresDate)
        try c.encode(isSecure, forKey: .isSecure)
        try c.encode(isHTTPOnly, forKey: .isHTTPOnly)
        try c.encode(isSessionOnly, forKey: .isSessionOnly)
        try c.encode(sameSitePolicy, forKey: .sameSitePolicy)
        try c.encodeNil(forKey: .portList)
    }
}

/// The body of `POST /v1/sessions/{id}/cookies`: `setCookies(_:for:mainDocumentURL:)`.
public struct SetCookiesRequest: Decodable, Sendable {
    /// The URL the cookies are for: a cookie without a `domain` gets its host (host-only).
    public var url: String?
    public var mainDocumentURL: String?
    public var cookies: [CookieInput]
}

/// One cookie to store, as `HTTPCookie(properties:)` takes it.
public struct CookieInput: Decodable, Sendable {
    public var name: String
    public var value: String
    /// `.example.com`: a cookie its subdomains get too; `example.com`: that host only; absent: `url`'s host.
    public var domain: String?
    /// Absent: `/`.
    public var path: String?
    /// Absent or null: a session cookie.
    public var expiresDate: Date?
    public var isSecure: Bool?
    public var isHTTPOnly: Bool?
    /// `lax`, `strict` or `none`.
    public var sameSitePolicy: String?
}

extension SetCookiesRequest {
    /// The cookies, checked and completed (domain, host-only, path), made at `now`; the first invalid
    /// field otherwise (`cookies[2].domain`, …).
    public func validated(now: Date) throws(RequestDecodingError) -> [Cookie] {
        var host: String?
        if let url {
            try Validate.httpURL(url, field: "url")
            host = URLComponents(string: url)?.host?.lowercased()
        }
        if let mainDocumentURL { try Validate.httpURL(mainDocumentURL, field: "mainDocumentURL") }
        var validated: [Cookie] = []
        for (index, cookie) in cookies.enumerated() {
            let field = "cookies[\(index)]"
            guard !cookie.name.isEmpty || !cookie.value.isEmpty else {
                throw .invalidValue("\(field).name", "a cookie needs a name or a value")
            }
            guard Self.isCookieText(cookie.name, allowingEquals: false) else {
                throw .invalidValue("\(field).name", "must not contain '=', ';', spaces or control characters")
            }
            guard Self.isCookieText(cookie.value, allowingEquals: true) else {
                throw .invalidValue("\(field).value", "must not contain ';' or control characters")
            }
            var domain: String
            var isHostOnly = true
            if let given = cookie.domain?.lowercased(), !given.isEmpty {
                isHostOnly = !given.hasPrefix(".")
                domain = isHostOnly ? given : String(given.dropFirst())
                // ASCII only (a non-ASCII name is given in its punycode form, as browsers store it).
                guard let first = domain.first, first != ".",
                    domain.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":") })
                else {
                    throw .invalidValue("\(field).domain", "must be a host name")
                }
            } else if let host, !host.isEmpty {
                domain = host
            } else {
                throw .missingField("\(field).domain")
            }
            domain = domain.hasSuffix(".") ? String(domain.dropLast()) : domain
            let path = cookie.path ?? "/"
            guard path.hasPrefix("/"), Self.isCookieText(path, allowingEquals: true) else {
                throw .invalidValue("\(field).path", "must start with '/' and hold no ';' or control characters")
            }
            let sameSite = cookie.sameSitePolicy?.lowercased()
            if let sameSite, !["lax", "strict", "none"].contains(sameSite) {
                throw .invalidValue("\(field).sameSitePolicy", "must be lax, strict or none")
            }
            validated.append(
                Cookie(
                    name: cookie.name, value: cookie.value, domain: domain, isHostOnly: isHostOnly, path: path,
                    expiresDate: cookie.expiresDate, isSecure: cookie.isSecure ?? false,
                    isHTTPOnly: cookie.isHTTPOnly ?? false, sameSitePolicy: sameSite, creationDate: now))
        }
        return validated
    }

    /// What a `Cookie` header can carry: no `;` (it separates cookies), no control characters, and in a
    /// name no `=` and no white space.
    private static func isCookieText(_ text: String, allowingEquals: Bool) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            scalar.value >= 0x20 && scalar.value != 0x7F && scalar != ";"
                && (allowingEquals || (scalar != "=" && scalar != " " && scalar != "\t"))
        }
    }
}
