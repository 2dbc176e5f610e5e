/// What a `Range` field asks of a representation of `size` bytes, for a server that sends one range at
/// most (no `multipart/byteranges`), following RFC 9110 §14.2.
///
/// The field is ignored (the whole representation, 200) when its unit is not `bytes` (compared without
/// case), when its syntax is invalid, or when it names several ranges. Only a single valid range that
/// does not overlap the representation is unsatisfiable (416): a first-pos at or past the end, a
/// zero-length suffix (`bytes=-0`), or any range of an empty representation.
public enum RangeRequest: Hashable, Sendable {
    /// Send the whole representation (200).
    case whole
    /// Send the bytes `first...last` (206); both lie inside the representation.
    case range(first: UInt64, last: UInt64)
    /// Answer 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// The request a `Range` field value makes of `size` bytes (RFC 9110 §14.1.1 grammar):
    /// `ranges-specifier = range-unit "=" range-set`, `range-set = 1#range-spec`,
    /// `int-range = first-pos "-" [ last-pos ]`, `suffix-range = "-" suffix-length`.
    public static func parse(_ field: String, size: UInt64) -> RangeRequest {
        let value = trimmed(Substring(field))
        guard let equals = value.firstIndex(of: "="), isBytesUnit(value[..<equals]) else { return .whole }
        // A list tolerates empty elements and whitespace around its commas (RFC 9110 §5.6.1).
        let specs = value[value.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            .map(trimmed).filter { !$0.isEmpty }
        guard specs.count == 1, let spec = Spec(specs[0]) else { return .whole }
        guard size > 0 else { return .unsatisfiable }
        switch spec {
        case .suffix(let length):
            guard length > 0 else { return .unsatisfiable }
            return .range(first: size - min(length, size), last: size - 1)
        case .from(let first, let last):
            guard first < size else { return .unsatisfiable }
            return .range(first: first, last: min(last ?? .max, size - 1))
        }
    }

    /// The one `first-pos "-" [ last-pos ]` range of a field, for a representation whose size is not known
    /// yet (a body still arriving); nil when the field is to be ignored — another unit, invalid syntax,
    /// several ranges, or a suffix range, which needs the end.
    public static func start(of field: String) -> (first: UInt64, last: UInt64?)? {
        let value = trimmed(Substring(field))
        guard let equals = value.firstIndex(of: "="), isBytesUnit(value[..<equals]) else { return nil }
        let specs = value[value.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            .map(trimmed).filter { !$0.isEmpty }
        guard specs.count == 1, case .from(let first, let last)? = Spec(specs[0]) else { return nil }
        return (first, last)
    }

    /// One syntactically valid byte range-spec.
    private enum Spec {
        /// `first-pos "-" [ last-pos ]`, with last-pos ≥ first-pos.
        case from(UInt64, UInt64?)
        /// `"-" suffix-length`.
        case suffix(UInt64)

        init?(_ text: Substring) {
            guard let dash = text.firstIndex(of: "-") else { return nil }
            let before = text[..<dash]
            let after = text[text.index(after: dash)...]
            if before.isEmpty {
                guard let length = RangeRequest.number(after) else { return nil }
                self = .suffix(length)
                return
            }
            guard let first = RangeRequest.number(before) else { return nil }
            if after.isEmpty {
                self = .from(first, nil)
                return
            }
            // A last-pos below first-pos makes the range-spec invalid, not unsatisfiable.
            guard let last = RangeRequest.number(after), last >= first else { return nil }
            self = .from(first, last)
        }
    }

    /// `1*DIGIT` as a number; a value past `UInt64.max` saturates (it is past any file's end anyway).
    private static func number(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        var value: UInt64 = 0
        for digit in text.utf8 {
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = shifted.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            if overflowed || carried { return .max }
            value = sum
        }
        return value
    }

    /// The range unit is a case-insensitive token; only `bytes` is understood.
    private static func isBytesUnit(_ unit: Substring) -> Bool {
        unit.utf8.count == 5 && zip(unit.utf8, "bytes".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    /// Without the optional whitespace (SP, HTAB) around it.
    private static func trimmed(_ text: Substring) -> Substring {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        var result = text.drop(while: isWhitespace)
        while let last = result.last, isWhitespace(last) { result = result.dropLast() }
        return result
    }
}
