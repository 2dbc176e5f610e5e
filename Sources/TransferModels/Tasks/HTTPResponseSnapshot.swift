import Foundation

/// An `HTTPURLResponse` as the API reports it (`response` of a task, redirect and response events).
public struct HTTPResponseSnapshot: Codable, Sendable, Hashable {
    public var url: String
    public var statusCode: Int
    /// Header fields with their names as received; a repeated field's values are joined with `, `.
    public var allHeaderFields: [String: String]
    /// The `Content-Type`'s `type/subtype`, lowercased; nil without a `Content-Type`.
    public var mimeType: String?
    /// `Content-Length`, or -1 (`NSURLResponseUnknownLength`).
    public var expectedContentLength: Int64
    /// The `Content-Type`'s `charset` parameter, lowercased; nil without one.
    public var textEncodingName: String?
    public var suggestedFilename: String?

    public init(
        url: String, statusCode: Int, allHeaderFields: [String: String], mimeType: String?,
        expectedContentLength: Int64, textEncodingName: String?, suggestedFilename: String?
    ) {
        self.url = url
        self.statusCode = statusCode
        self.allHeaderFields = allHeaderFields
        self.mimeType = mimeType
        self.expectedContentLength = expectedContentLength
        self.textEncodingName = textEncodingName
        self.suggestedFilename = suggestedFilename
    }

    /// A response from its header lines in arrival order, deriving the other properties as HTTPURLResponse
    /// does. Names that differ only in case are one field, kept under the first spelling seen.
    public init(url: String, statusCode: Int, headerLines: [(name: String, value: String)]) {
        // Every response of every task is built this way, on the engine's thread. Nearly always no two names
        // are one field: then nothing is merged or lowercased, and the three derived properties find their
        // fields by comparing bytes.
        if let fields = Self.distinctASCIIFields(headerLines) {
            self.init(
                url: url, statusCode: statusCode, allHeaderFields: fields,
                lowercasedLookup: { name in headerLines.first { $0.name.isEqualIgnoringASCIICase(name) }?.value })
            return
        }
        // Otherwise one pass by lowercased name, which the derived properties then look their fields up in.
        var merged: [String: (name: String, value: String)] = Dictionary(minimumCapacity: headerLines.count)
        for (name, value) in headerLines {
            let lowered = name.asciiLowercased
            if let field = merged[lowered] {
                merged[lowered] = (field.name, field.value + ", " + value)
            } else {
                merged[lowered] = (name, value)
            }
        }
        var fields: [String: String] = Dictionary(minimumCapacity: merged.count)
        for field in merged.values { fields[field.name] = field.value }
        self.init(url: url, statusCode: statusCode, allHeaderFields: fields, lowercasedLookup: { merged[$0]?.value })
    }

    /// The lines as fields when every name is ASCII and no two are equal ignoring ASCII case; nil otherwise,
    /// and for more than 32 lines, where comparing every pair would cost more than lowercasing each name.
    private static func distinctASCIIFields(_ lines: [(name: String, value: String)]) -> [String: String]? {
        guard lines.count <= 32 else { return nil }
        for index in lines.indices {
            let name = lines[index].name
            guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            for other in lines[(index + 1)...] where other.name.isEqualIgnoringASCIICase(name) { return nil }
        }
        var fields: [String: String] = Dictionary(minimumCapacity: lines.count)
        for (name, value) in lines { fields[name] = value }
        return fields
    }

    /// A response from its merged header fields, deriving `mimeType`, `textEncodingName`,
    /// `expectedContentLength` and `suggestedFilename` from them and the URL.
    public init(url: String, statusCode: Int, allHeaderFields: [String: String]) {
        self.init(
            url: url, statusCode: statusCode, allHeaderFields: allHeaderFields,
            lowercasedLookup: { Self.value(forHTTPHeaderField: $0, in: allHeaderFields) })
    }

    /// `lookup` finds a field by its lowercased name.
    private init(url: String, statusCode: Int, allHeaderFields: [String: String], lowercasedLookup lookup: (String) -> String?) {
        let (mimeType, encoding) = Self.contentType(lookup("content-type"))
        self.init(
            url: url, statusCode: statusCode, allHeaderFields: allHeaderFields, mimeType: mimeType,
            expectedContentLength: Self.expectedContentLength(lookup("content-length")), textEncodingName: encoding,
            suggestedFilename: Self.suggestedFilename(contentDisposition: lookup("content-disposition"), url: url))
    }

    /// What `If-Range` may carry to continue this representation: its strong ETag, else its Last-Modified
    /// date; nil when it has neither (a weak ETag cannot vouch for bytes).
    public var rangeValidator: String? {
        value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
            ?? value(forHTTPHeaderField: "Last-Modified")
    }

    /// A header field's value, looked up case-insensitively as `value(forHTTPHeaderField:)` does.
    public func value(forHTTPHeaderField name: String) -> String? {
        Self.value(forHTTPHeaderField: name, in: allHeaderFields)
    }

    private static func value(forHTTPHeaderField name: String, in fields: [String: String]) -> String? {
        if let value = fields[name] { return value }
        let lowered = name.asciiLowercased
        return fields.first { $0.key.asciiLowercased == lowered }?.value
    }

    /// `text/HTML; Charset="UTF-8"` → (`text/html`, `utf-8`), lowercased as swift-corelibs-foundation does.
    static func contentType(_ value: String?) -> (mimeType: String?, textEncodingName: String?) {
        guard let value else { return (nil, nil) }
        let parsed = HeaderParameters(value)
        let mimeType = parsed.value.isEmpty ? nil : parsed.value.asciiLowercased
        return (mimeType, parsed["charset"].map(\.asciiLowercased))
    }

    /// `Content-Length` when it is one non-negative integer; -1 otherwise (absent, repeated, garbage).
    static func expectedContentLength(_ value: String?) -> Int64 {
        guard let value, let length = Int64(value.trimmingOptionalWhitespace), length >= 0 else { return -1 }
        return length
    }

    /// The name URLSession suggests for saving the body: the `Content-Disposition` `filename*` (RFC 6266,
    /// percent-decoded) or `filename`, else the URL's last path component, else its host, else `Unknown`.
    /// Directory parts are dropped, so the name can never point outside the directory it is saved in.
    static func suggestedFilename(contentDisposition: String?, url: String) -> String {
        if let parameters = contentDisposition.map(HeaderParameters.init) {
            let extended = parameters["filename*"].flatMap(Self.decodeExtendedValue)
            if let name = (extended ?? parameters["filename"]).flatMap(Self.safeFilename) { return name }
        }
        if let (lastPathComponent, host) = Self.plainParts(of: url) ?? URL(string: url).map({ ($0.lastPathComponent, $0.host) }) {
            if let name = Self.safeFilename(lastPathComponent) { return name }
            if let host, let name = Self.safeFilename(host) { return name }
        }
        return "Unknown"
    }

    /// The last path component and host of a plain `scheme://host[:port]/path` URL — no percent-escapes,
    /// user info or IPv6 literal, which `URL` is left to read — without building a `URL` (every response
    /// gets a suggested filename, and parsing showed in the small-task profile).
    private static func plainParts(of url: String) -> (lastPathComponent: String, host: String?)? {
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8),
            !bytes.contains(where: {
                $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "[") || $0 >= 0x80 || $0 <= 0x20
            })
        else { return nil }
        // Byte by byte: every delimiter is ASCII, and the URL has no other (checked above).
        let rest = bytes[bytes.index(colon, offsetBy: 3)...]
        let beforeQuery = rest.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let authority = beforeQuery.prefix { $0 != UInt8(ascii: "/") }
        let host = authority.prefix { $0 != UInt8(ascii: ":") }
        let path = beforeQuery[authority.endIndex...]
        let last = path.split(separator: UInt8(ascii: "/")).last ?? path.prefix(1)
        return (String(decoding: last, as: UTF8.self), host.isEmpty ? nil : String(decoding: host, as: UTF8.self))
    }

    /// RFC 8187 `charset'language'percent-encoded` (UTF-8 only; ISO-8859-1 is read as Latin-1).
    private static func decodeExtendedValue(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let charset = parts[0].lowercased()
        guard charset == "utf-8" else {
            guard charset == "iso-8859-1", let bytes = percentDecodedBytes(parts[2]) else { return nil }
            return String(bytes.map { Character(Unicode.Scalar($0)) })
        }
        return String(parts[2]).removingPercentEncoding
    }

    private static func percentDecodedBytes(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// The last path component of `name` without control characters; nil when nothing usable is left.
    private static func safeFilename(_ name: String) -> String? {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
        guard !cleaned.isEmpty, cleaned != ".", cleaned != ".." else { return nil }
        return cleaned
    }
}

/// A header value with `;`-separated parameters (`Content-Type`, `Content-Disposition`), quoted strings
/// and backslash escapes honoured, parameter names lowercased.
struct HeaderParameters {
    /// The part before the first `;`, trimmed.
    var value: String
    private var parameters: [String: String] = [:]

    init(_ header: String) {
        // Byte by byte: the delimiters are ASCII, and an escaped multi-byte character keeps its bytes.
        var fields: [String] = []
        var current: [UInt8] = []
        var quoted = false
        var escaped = false
        for byte in header.utf8 {
            if escaped {
                current.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") && quoted {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == UInt8(ascii: ";") && !quoted {
                fields.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        fields.append(String(decoding: current, as: UTF8.self))
        value = fields[0].trimmingOptionalWhitespace
        for field in fields.dropFirst() {
            guard let equals = field.utf8.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = field[..<equals].trimmingOptionalWhitespace.asciiLowercased
            let value = field[field.utf8.index(after: equals)...].trimmingOptionalWhitespace
            if !name.isEmpty && parameters[name] == nil { parameters[name] = value }
        }
    }

    subscript(name: String) -> String? { parameters[name] }
}
