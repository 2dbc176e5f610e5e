/// A response head read from a connection (RFC 9112 §4–5): what a client's WebSocket handshake waits for
/// before the frames.
public struct HTTPResponseHead: Sendable, Equatable {
    public var statusCode: Int
    public var reasonPhrase: String
    /// The fields in the order received, their names as spelled.
    public var fields: [(name: String, value: String)]

    public init(statusCode: Int, reasonPhrase: String, fields: [(name: String, value: String)]) {
        self.statusCode = statusCode
        self.reasonPhrase = reasonPhrase
        self.fields = fields
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.reasonPhrase == rhs.reasonPhrase
            && lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// The field's values joined by ", " (names compared case-insensitively), nil when absent.
    public func value(of name: String) -> String? {
        let values = fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// A list field's tokens, lowercased (`Connection: keep-alive, Upgrade` → keep-alive, upgrade).
    public func tokens(of name: String) -> [String] {
        (value(of: name) ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: " \t").lowercased() }
    }

    /// Reads a head from the start of `bytes`: nil until its empty line has arrived; else the head and
    /// how many bytes it took (what follows is the connection's next data).
    /// - Throws: `WebSocketHandshakeError.malformedResponse` for anything but an HTTP/1.1 head, or one
    ///   larger than `limit` bytes.
    public static func parse(_ bytes: [UInt8], limit: Int = 65_536) throws(WebSocketHandshakeError) -> (Self, Int)? {
        guard let end = headEnd(bytes) else {
            guard bytes.count <= limit else { throw .malformedResponse }
            return nil
        }
        guard end <= limit, let text = String(validating: bytes[..<end], as: UTF8.self) else { throw .malformedResponse }
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast(2)[...]
        guard let statusLine = lines.popFirst() else { throw .malformedResponse }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", parts[1].count == 3, let status = Int(parts[1]) else {
            throw .malformedResponse
        }
        var fields: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else { throw .malformedResponse }
            fields.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: " \t")))
        }
        return (Self(statusCode: status, reasonPhrase: parts.count > 2 ? String(parts[2]) : "", fields: fields), end)
    }

    /// The index just past the head's final CRLF CRLF.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = self[...]
        while let first = slice.first, characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, characters.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
