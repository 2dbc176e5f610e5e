public import Foundation

/// Writes one flat JSON object straight to bytes, for a hot type whose encoding is known: the same bytes
/// `WireJSON.encode` writes for it (scalars formatted by the same buffer), without the `Encoder` machinery
/// and the sort. The caller gives the members in `WireJSON`'s order — keys sorted by their UTF-8 bytes, each
/// once — and a test of the type compares the two writers (`EventObject`'s in `TransferModelsTests`).
public struct JSONObjectWriter: ~Copyable {
    private let buffer: JSONByteBuffer
    private var isFirst = true

    public init(capacity: Int = 256) {
        buffer = JSONByteBuffer(capacity: capacity, literals: false)
        buffer.append(UInt8(ascii: "{"))
    }

    /// A key of plain ASCII letters and digits (nothing to escape), and its colon.
    private mutating func key(_ key: StaticString) {
        if !isFirst { buffer.append(UInt8(ascii: ",")) }
        isFirst = false
        buffer.appendQuotedKey(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    }

    public mutating func member(_ key: StaticString, string value: String?) {
        self.key(key)
        if let value { buffer.appendString(value) } else { buffer.append("null") }
    }

    public mutating func member(_ key: StaticString, integer value: Int64) {
        self.key(key)
        buffer.appendInteger(value)
    }

    /// `Date` as `WireJSON` writes it: `RFC3339.format(_:)`'s string.
    public mutating func member(_ key: StaticString, timestamp value: Date) {
        self.key(key)
        buffer.appendTimestamp(value)
    }

    /// JSON written already (`EncodedJSON`), as it is.
    public mutating func member(_ key: StaticString, json value: EncodedJSON) {
        self.key(key)
        buffer.appendRaw(value.text)
    }

    /// The object, closed.
    public consuming func finish() -> [UInt8] {
        buffer.append(UInt8(ascii: "}"))
        return buffer.contents
    }
}
