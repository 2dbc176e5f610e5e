/// A JSON syntax error, located by 1-based line and column.
///
/// Columns count Unicode scalars, not bytes, so they match what an editor shows for UTF-8 text.
/// A line ends at `\n`, `\r\n` or a lone `\r`.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    /// 0-based byte offset of the offending byte (the input's length at an unexpected end).
    public let byteOffset: Int
    /// What is wrong, e.g. "expected ',' or '}' after an object member".
    public let message: String

    public init(line: Int, column: Int, byteOffset: Int, message: String) {
        (self.line, self.column, self.byteOffset, self.message) = (line, column, byteOffset, message)
    }

    public var description: String { "line \(line), column \(column): \(message)" }

    static let emptyInputMessage = "the body is empty"
    /// True for a zero-length input, which callers usually report without a position.
    public var isEmptyInput: Bool { byteOffset == 0 && message == Self.emptyInputMessage }

    /// The error for `message` at byte `offset` of `bytes`. The line and column are only computed
    /// here, so the parser's happy path never tracks them.
    init(message: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        var line = 1
        var column = 1
        var position = 0
        while position < offset {
            let byte = bytes[position]
            // "\r\n" is one break, counted at the "\n"; a lone "\r" is a break on its own.
            let lineFeedFollows = position + 1 < bytes.count && bytes[position + 1] == 0x0A
            if byte == 0x0A || (byte == 0x0D && !lineFeedFollows) {
                (line, column) = (line + 1, 1)
            } else if byte != 0x0D && byte & 0xC0 != 0x80 {  // count scalars: skip continuation bytes
                column += 1
            }
            position += 1
        }
        self.init(line: line, column: column, byteOffset: offset, message: message)
    }
}
