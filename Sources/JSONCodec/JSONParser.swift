/// A strict RFC 8259 JSON parser, checked against the JSONTestSuite corpus.
///
/// Beyond the grammar (no trailing commas, comments, NaN/Infinity, leading zeros, single quotes,
/// unescaped control characters, or data after the value) it rejects what RFC 8259 leaves to the
/// implementation and a request body should never carry: invalid UTF-8, lone surrogate escapes,
/// a byte order mark, and nesting deeper than ``maximumDepth``.
///
/// Duplicate keys within one object are valid JSON, so they are accepted unless the caller asks
/// otherwise (``DuplicateKeys/reject``, which ``StrictJSONDecoder`` does for request bodies).
public enum JSONParser {
    /// The deepest nesting of arrays and objects accepted; deeper input is an error, which also
    /// bounds the parser's recursion.
    public static let maximumDepth = 64

    /// What to do with a key that occurs twice in one object.
    public enum DuplicateKeys: Sendable {
        /// Keep one member, at the key's first position, with its last value: what most parsers do,
        /// and what ``JSONObject/init(_:)`` does with repeated keys.
        case useLastValue
        /// Fail at the repeated key. A request body must say one thing: with two values for one
        /// field, which did the client mean, and which would another parser on the way have used?
        case reject
    }

    /// Parses UTF-8 bytes: `[UInt8]`, `Data`, `ArraySlice<UInt8>`, `String.UTF8View`, ...
    public static func parse(
        _ bytes: some Collection<UInt8>, duplicateKeys: DuplicateKeys = .useLastValue
    ) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONSyntaxError) in try parse(buffer, duplicateKeys: duplicateKeys) }
        }
        if let result { return try result.get() }
        return try parse(Array(bytes), duplicateKeys: duplicateKeys)  // non-contiguous collections are rare; copy once
    }

    /// Parses the UTF-8 of `text`.
    public static func parse(
        _ text: String, duplicateKeys: DuplicateKeys = .useLastValue
    ) throws(JSONSyntaxError) -> JSONValue {
        try parse(text.utf8, duplicateKeys: duplicateKeys)
    }

    /// Parses raw UTF-8 bytes in place.
    public static func parse(
        _ buffer: UnsafeRawBufferPointer, duplicateKeys: DuplicateKeys = .useLastValue
    ) throws(JSONSyntaxError) -> JSONValue {
        try parse(buffer.assumingMemoryBound(to: UInt8.self), duplicateKeys: duplicateKeys)
    }

    private static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, duplicateKeys: DuplicateKeys
    ) throws(JSONSyntaxError) -> JSONValue {
        var parser = Parser(bytes: buffer, rejectsDuplicateKeys: duplicateKeys == .reject)
        return try parser.parseDocument()
    }
}

/// Recursive descent over bytes; depth is capped, so recursion is bounded.
private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let rejectsDuplicateKeys: Bool
    var index = 0
    var depth = 0

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.isEmpty { throw fail(JSONSyntaxError.emptyInputMessage) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw fail("a byte order mark is not allowed") }
        skipWhitespace()
        if index == bytes.count { throw fail("the body contains only whitespace") }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw fail("unexpected \(describeCurrent()) after the JSON value") }
        return value
    }

    /// Parses the value at `index`; whitespace before it is already skipped.
    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "N") where rest(startsWith: "NaN"), UInt8(ascii: "I") where rest(startsWith: "Infinity"):
            throw fail("NaN and Infinity are not allowed")
        default: throw unexpected(expecting: "a value")
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        var members: [JSONObject.Element] = []
        var positions: [String: Int]?  // built once the object outgrows a linear key scan
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { return leaveContainer(.object(JSONObject())) }
        while true {
            guard peek(UInt8(ascii: "\"")) else {
                if members.isEmpty { throw unexpected(expecting: "a string key or '}'") }
                if peek(UInt8(ascii: "}")) { throw fail("trailing commas are not allowed") }
                throw unexpected(expecting: "a string key after ','")
            }
            let keyOffset = index
            let key = try parseString()
            if positions == nil, members.count >= JSONObject.indexThreshold { positions = JSONObject.index(members) }
            let earlier = if let positions { positions[key] } else { members.firstIndex { $0.key == key } }
            if earlier != nil, rejectsDuplicateKeys {
                throw fail("duplicate key \"\(key)\" in an object", at: keyOffset)
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw unexpected(expecting: "':' after an object key") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            if let earlier {
                members[earlier].value = value
            } else {
                positions?[key] = members.count
                members.append((key, value))
            }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                skipWhitespace()
            } else if peek(UInt8(ascii: "}")) {
                return leaveContainer(.object(JSONObject(uniqueMembers: members, positions: positions)))
            } else {
                throw unexpected(expecting: "',' or '}' after an object member")
            }
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { return leaveContainer(.array(elements)) }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                skipWhitespace()
                if peek(UInt8(ascii: "]")) { throw fail("trailing commas are not allowed") }
            } else if peek(UInt8(ascii: "]")) {
                return leaveContainer(.array(elements))
            } else {
                throw unexpected(expecting: "',' or ']' after an array element")
            }
        }
    }

    mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw fail("nesting is deeper than \(JSONParser.maximumDepth) levels")
        }
        index += 1
    }

    /// Steps over the closing bracket at `index`.
    mutating func leaveContainer(_ value: JSONValue) -> JSONValue {
        index += 1
        depth -= 1
        return value
    }

    mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { rest(startsWith: $0) }
        guard matches else { throw fail("invalid literal, expected '\(word)'") }
        index += length
        return value
    }

    /// RFC 8259: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if peek(UInt8(ascii: "-")) {
            index += 1
            if rest(startsWith: "Infinity") { throw fail("NaN and Infinity are not allowed", at: start) }
        }
        if peek(UInt8(ascii: "0")) {
            index += 1
            if peekDigit() { throw fail("leading zeros are not allowed", at: start) }
        } else if peekDigit() {
            skipDigits()
        } else {
            throw unexpected(expecting: "a digit after '-'")
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard peekDigit() else { throw unexpected(expecting: "a digit after the decimal point") }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard peekDigit() else { throw unexpected(expecting: "a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return .number(JSONNumber(uncheckedText: text))
    }

    /// Parses a string at its opening quote. Unescaped text is sliced straight into the String;
    /// only strings with escapes pay for a scratch buffer.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let quote = index
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                var scratch = Array(bytes[start..<index])
                return try parseEscapedString(into: &scratch, quote: quote)
            } else if byte < 0x20 {
                throw fail("unescaped control character \(scalarName(UInt32(byte))) in a string")
            } else if byte < 0x80 {
                index += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        throw fail("unterminated string", at: quote)
    }

    mutating func parseEscapedString(into scratch: inout [UInt8], quote: Int) throws(JSONSyntaxError) -> String {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: scratch, as: UTF8.self)  // every byte was validated
            } else if byte == UInt8(ascii: "\\") {
                try appendEscape(into: &scratch)
            } else if byte < 0x20 {
                throw fail("unescaped control character \(scalarName(UInt32(byte))) in a string")
            } else if byte < 0x80 {
                scratch.append(byte)
                index += 1
            } else {
                let start = index
                try skipUTF8Sequence()
                scratch += bytes[start..<index]
            }
        }
        throw fail("unterminated string", at: quote)
    }

    mutating func appendEscape(into scratch: inout [UInt8]) throws(JSONSyntaxError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw fail("unterminated string") }
        let simple: UInt8? =
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes[index]
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            scratch.append(simple)
            index += 1
            return
        }
        guard bytes[index] == UInt8(ascii: "u") else { throw fail("invalid escape sequence", at: escapeStart) }
        var scalar = try readHex4(escapeStart: escapeStart)
        if (0xDC00...0xDFFF).contains(scalar) {
            throw fail("unpaired surrogate \(scalarName(scalar)) in a \\u escape", at: escapeStart)
        }
        if (0xD800...0xDBFF).contains(scalar) {
            // A high surrogate must be followed at once by an escaped low surrogate.
            let lowStart = index
            guard rest(startsWith: "\\u") else {
                throw fail("unpaired surrogate \(scalarName(scalar)) in a \\u escape", at: escapeStart)
            }
            index += 1
            let low = try readHex4(escapeStart: lowStart)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw fail("unpaired surrogate \(scalarName(scalar)) in a \\u escape", at: escapeStart)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        // Surrogates were handled above, so this scalar is always valid.
        if let unicode = Unicode.Scalar(scalar) { scratch += unicode.utf8 }
    }

    /// Reads the 4 hex digits after `\u` (index is on the `u`).
    mutating func readHex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        index += 1
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw fail("invalid \\u escape, expected 4 hexadecimal digits", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence at `index` (Unicode table 3-7: no overlong forms,
    /// no surrogates, nothing above U+10FFFF) and steps over it.
    mutating func skipUTF8Sequence() throws(JSONSyntaxError) {
        guard let length = utf8SequenceLength(at: index) else {
            throw fail("invalid UTF-8 (byte 0x\(String(bytes[index], radix: 16, uppercase: true)))")
        }
        index += length
    }

    func utf8SequenceLength(at offset: Int) -> Int? {
        func byte(_ k: Int) -> UInt8 { offset + k < bytes.count ? bytes[offset + k] : 0 }
        let continuation: ClosedRange<UInt8> = 0x80...0xBF
        let (length, second): (Int, ClosedRange<UInt8>) =
            switch byte(0) {
            case 0xC2...0xDF: (2, continuation)
            case 0xE0: (3, 0xA0...0xBF)
            case 0xED: (3, 0x80...0x9F)
            case 0xE1...0xEF: (3, continuation)
            case 0xF0: (4, 0x90...0xBF)
            case 0xF1...0xF3: (4, continuation)
            case 0xF4: (4, 0x80...0x8F)
            default: (0, continuation)
            }
        guard length > 0, second.contains(byte(1)) else { return nil }
        for k in 2..<max(length, 2) where !continuation.contains(byte(k)) { return nil }
        return length
    }

    func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }
    func peekDigit() -> Bool { index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) }
    mutating func skipDigits() { while peekDigit() { index += 1 } }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    func rest(startsWith prefix: StaticString) -> Bool { prefix.withUTF8Buffer { rest(startsWith: $0) } }
    func rest(startsWith prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count - index >= prefix.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
    }

    func hexValue(_ byte: UInt8) -> UInt32? {
        if (0x30...0x39).contains(byte) { return UInt32(byte - 0x30) }
        let lower = byte | 0x20  // folds A-F onto a-f; no other byte lands there
        return (0x61...0x66).contains(lower) ? UInt32(lower - 0x61 + 10) : nil
    }

    func scalarName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// "'x'", "end of input", "U+0001", "invalid UTF-8": what sits at `index`, for messages.
    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F { return "control character \(scalarName(UInt32(byte)))" }
        if byte < 0x80 { return "character '\(Character(Unicode.Scalar(byte)))'" }
        guard let length = utf8SequenceLength(at: index) else { return "invalid UTF-8" }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]), as: UTF8.self)
        return "character '\(text)'"
    }

    /// An error for a missing token, with special messages for common non-JSON habits.
    func unexpected(expecting what: String) -> JSONSyntaxError {
        guard index < bytes.count else { return fail("unexpected end of input, expected \(what)") }
        switch bytes[index] {
        case UInt8(ascii: "/"): return fail("comments are not allowed")
        case UInt8(ascii: "'"): return fail("strings must use double quotes")
        default: return fail("expected \(what), found \(describeCurrent())")
        }
    }

    /// Builds an error at `offset` (default: `index`).
    func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, at: min(offset ?? index, bytes.count), in: bytes)
    }
}
