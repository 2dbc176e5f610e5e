import Foundation
import TransferModels

/// Splits a `multipart/x-mixed-replace` body (RFC 2046 §5.1 framing) into its parts as bytes arrive:
/// each part's header fields, then its content. URLSession turns every part into a response of its own,
/// whose data replaces the previous part's; the transfer does the same with what this hands it.
///
/// The bytes are kept here until handed out, so a caller may stop after a part's head (to wait for a
/// decision about it) and ask for the rest later. Content is handed out as it comes, except the last few
/// bytes of what has arrived, which could begin the next delimiter.
struct MultipartReplaceParser {
    enum Output: Equatable {
        /// The header fields of the next part (which starts a new response).
        case head([Field])
        /// Content of the current part.
        case content([UInt8])
    }

    struct Field: Equatable {
        var name: String
        var value: String
    }

    private enum State {
        /// Before the first delimiter: discarded.
        case preamble
        /// Right after a delimiter: the rest of its line says whether it closes the body.
        case delimiterLine
        case headers([Field])
        /// `atStart`: on the line feed that ended the part's head, which the delimiter of an empty part
        /// shares.
        case content(atStart: Bool)
        /// After the closing delimiter: discarded.
        case epilogue
    }

    private var state = State.preamble
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start.
    private var position = 0
    /// `--boundary`, and the delimiter inside content: a line feed then `--boundary` (the CR before the
    /// line feed, when there is one, belongs to the delimiter too).
    private let dashBoundary: [UInt8]
    private let delimiter: [UInt8]
    /// A line of a part's head longer than this ends the parsing (no part can be that).
    private static let maximumLineLength = 16 * 1024

    /// A parser for a response whose `Content-Type` is `multipart/x-mixed-replace` with a `boundary`;
    /// nil for any other.
    init?(contentType: String?) {
        // Most responses are not multipart: that is one byte-wise look, not a parse.
        guard let contentType, contentType.trimmingOptionalWhitespace.asciiLowercased.hasPrefix("multipart/x-mixed-replace") else {
            return nil
        }
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/x-mixed-replace" else { return nil }
        for parameter in parameters.dropFirst() {
            guard let equals = parameter.firstIndex(of: "="),
                parameter[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "boundary"
            else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard (1...70).contains(value.utf8.count) else { return nil }  // RFC 2046's limit
            dashBoundary = Array("--\(value)".utf8)
            delimiter = [0x0A] + dashBoundary
            return
        }
        return nil
    }

    /// Whether the closing delimiter was read: nothing after it is content.
    var isFinished: Bool {
        if case .epilogue = state { return true }
        return false
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if case .epilogue = state { return }
        if position > 0 && position >= buffer.count / 2 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next part head or piece of content, or nil until more bytes arrive.
    mutating func next() -> Output? {
        while true {
            switch state {
            case .preamble:
                guard let start = find(dashBoundary, from: position) else {
                    position = max(position, buffer.count - dashBoundary.count)  // what cannot start it goes
                    return nil
                }
                position = start + dashBoundary.count
                state = .delimiterLine
            case .delimiterLine:
                guard let line = readLine() else { return nil }
                state = line.starts(with: [0x2D, 0x2D]) ? .epilogue : .headers([])
            case .headers(var fields):
                guard let line = readLine() else { return nil }
                guard !line.isEmpty else {
                    position -= 1  // back on the line feed: an empty part's delimiter starts with it
                    state = .content(atStart: true)
                    return .head(fields)
                }
                if let colon = line.firstIndex(of: 0x3A) {
                    let name = String(decoding: line[..<colon], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    fields.append(Field(name: name, value: value))
                }
                state = .headers(fields)
            case .content(atStart: true):
                guard buffer.count - position >= delimiter.count else { return nil }
                if buffer[position...].starts(with: delimiter) {
                    position += delimiter.count
                    state = .delimiterLine
                } else {
                    position += 1
                    state = .content(atStart: false)
                }
            case .content(atStart: false):
                if let found = find(delimiter, from: position) {
                    let end = found > position && buffer[found - 1] == 0x0D ? found - 1 : found
                    let content = Array(buffer[position..<end])
                    position = found + delimiter.count
                    state = .delimiterLine
                    if !content.isEmpty { return .content(content) }
                } else {
                    // Keep what could be the start of a delimiter (and the CR before it).
                    let safe = buffer.count - delimiter.count
                    guard safe > position else { return nil }
                    defer { position = safe }
                    return .content(Array(buffer[position..<safe]))
                }
            case .epilogue:
                buffer = []
                position = 0
                return nil
            }
        }
    }

    /// The content still held back at the end of the body (a part cut off without its delimiter).
    mutating func finish() -> [UInt8] {
        guard case .content(let atStart) = state else { return [] }
        if atStart { position += 1 }
        guard position < buffer.count else { return [] }
        defer { state = .epilogue }
        return Array(buffer[position...])
    }

    /// One line without its CR LF (or LF), or nil until it is complete. A line too long to be a part's
    /// header ends the parsing.
    private mutating func readLine() -> ArraySlice<UInt8>? {
        guard let newline = buffer[position...].firstIndex(of: 0x0A) else {
            if buffer.count - position > Self.maximumLineLength { state = .epilogue }
            return nil
        }
        var line = buffer[position..<newline]
        if line.last == 0x0D { line = line.dropLast() }
        position = newline + 1
        return line
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, buffer.count - start >= needle.count else { return nil }
        var index = start
        let last = buffer.count - needle.count
        while index <= last {
            guard let candidate = buffer[index...last].firstIndex(of: first) else { return nil }
            if buffer[candidate..<(candidate + needle.count)].elementsEqual(needle) { return candidate }
            index = candidate + 1
        }
        return nil
    }
}
