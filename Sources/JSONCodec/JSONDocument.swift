/// One encoded value: bytes already written to the document's buffer, or one of its containers, which stay
/// open to writes until the whole document is done (a nested container may be written to at any time).
/// A plain value, so copying and sorting slots costs no reference counting.
enum JSONSlot {
    case bytes(start: Int, end: Int)
    case object(Int)
    case array(Int)

    // The buffer starts with `nulltruefalse`.
    static var null: JSONSlot { .bytes(start: 0, end: 4) }
    static func bool(_ value: Bool) -> JSONSlot { value ? .bytes(start: 4, end: 8) : .bytes(start: 8, end: 13) }
}

/// Everything one `WireJSON.encode` call writes: scalars and keys as bytes, and its containers as linked lists
/// of members and elements in a few shared arrays, so no container costs an allocation of its own.
///
/// Members are kept in the order they were encoded. Sorting and deduplication wait for the end: a key encoded
/// twice keeps its last value, as in Foundation's dictionary-backed container.
///
/// `@exclusivity(unchecked)`: a document belongs to one `WireJSON.encode` call on one thread, and no access to
/// its arrays spans a call back into encoding code.
final class JSONDocument {
    struct Member {
        /// The key's first 8 bytes, big-endian and zero-padded: most comparisons end here.
        var prefix: UInt64
        var keyStart: Int
        var keyCount: Int32
        var next: Int32 = -1
        var keyNeedsEscaping: Bool
        var slot: JSONSlot
    }

    struct Object {
        var head: Int32 = -1
        var tail: Int32 = -1
        var count: Int32 = 0
        var hasNonASCIIKey = false
    }

    struct Element {
        var slot: JSONSlot
        var next: Int32 = -1
    }

    struct List {
        var head: Int32 = -1
        var tail: Int32 = -1
        var count: Int32 = 0
    }

    let bytes = JSONByteBuffer(capacity: 1024)
    @exclusivity(unchecked) private(set) var members: [Member] = []
    @exclusivity(unchecked) private(set) var objects: [Object] = []
    @exclusivity(unchecked) private(set) var elements: [Element] = []
    @exclusivity(unchecked) private(set) var arrays: [List] = []

    init() {
        members.reserveCapacity(64)
        objects.reserveCapacity(8)
    }

    // MARK: - Objects

    func makeObject() -> Int {
        objects.append(Object())
        return objects.count - 1
    }

    func append(key: String, slot: JSONSlot, toObject object: Int) {
        var key = key
        let index = Int32(truncatingIfNeeded: members.count)
        key.withUTF8 { utf8 in
            let start = bytes.count
            let scan = Self.scan(utf8)
            if let source = utf8.baseAddress { bytes.append(source, count: utf8.count) }
            members.append(
                Member(
                    prefix: scan.prefix, keyStart: start, keyCount: Int32(truncatingIfNeeded: utf8.count),
                    keyNeedsEscaping: scan.special, slot: slot))
            if scan.nonASCII { objects[object].hasNonASCIIKey = true }
        }
        let tail = objects[object].tail
        if tail < 0 { objects[object].head = index } else { members[Int(tail)].next = index }
        objects[object].tail = index
        objects[object].count += 1
    }

    /// The value most recently encoded for `key` (keys compared as `String`s, like Foundation's dictionary).
    func latestSlot(forKey key: String, inObject object: Int) -> JSONSlot? {
        var latest: JSONSlot?
        var index = objects[object].head
        while index >= 0 {
            let member = members[Int(index)]
            if self.key(of: member) == key { latest = member.slot }
            index = member.next
        }
        return latest
    }

    func key(of member: Member) -> String {
        String(
            decoding: UnsafeBufferPointer(start: bytes.base + member.keyStart, count: Int(member.keyCount)),
            as: UTF8.self)
    }

    /// A key's sort prefix, whether it has non-ASCII bytes, and whether it needs escaping (control characters,
    /// `"`, `\`), eight bytes at a time.
    private static func scan(_ utf8: UnsafeBufferPointer<UInt8>) -> (prefix: UInt64, nonASCII: Bool, special: Bool) {
        guard let source = utf8.baseAddress else { return (0, false, false) }
        let count = utf8.count
        let raw = UnsafeRawPointer(source)
        var special: UInt64 = 0
        var high: UInt64 = 0
        var prefix: UInt64 = 0
        if count >= 8 {
            prefix = UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))
            var offset = 0
            while offset + 8 <= count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                high |= word
                special |= JSONByteBuffer.specialBytes(word)
                offset += 8
            }
            if offset < count {  // the last 8 bytes, overlapping the loop's
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
                high |= word
                special |= JSONByteBuffer.specialBytes(word)
            }
        } else {
            var word: UInt64 = 0x2020_2020_2020_2020  // padded with spaces, which are not special
            for index in 0..<count {
                let byte = UInt64(source[index])
                word ^= (byte ^ 0x20) << (8 * UInt64(index))
                prefix |= byte << (56 - 8 * UInt64(index))
            }
            high = word
            special = JSONByteBuffer.specialBytes(word)
        }
        return (prefix, high & 0x8080_8080_8080_8080 != 0, special != 0)
    }

    // MARK: - Arrays

    func makeArray() -> Int {
        arrays.append(List())
        return arrays.count - 1
    }

    func count(ofArray array: Int) -> Int { Int(arrays[array].count) }

    func append(_ slot: JSONSlot, toArray array: Int) {
        let index = Int32(truncatingIfNeeded: elements.count)
        elements.append(Element(slot: slot))
        let tail = arrays[array].tail
        if tail < 0 { arrays[array].head = index } else { elements[Int(tail)].next = index }
        arrays[array].tail = index
        arrays[array].count += 1
    }

    /// Inserts at `position` (at the end when it is past it), as a released unkeyed `superEncoder()` does.
    func insert(_ slot: JSONSlot, at position: Int, inArray array: Int) {
        guard position > 0 else {
            let index = Int32(truncatingIfNeeded: elements.count)
            elements.append(Element(slot: slot, next: arrays[array].head))
            arrays[array].head = index
            if arrays[array].tail < 0 { arrays[array].tail = index }
            arrays[array].count += 1
            return
        }
        guard position < arrays[array].count else { return append(slot, toArray: array) }
        var previous = arrays[array].head
        for _ in 1..<position { previous = elements[Int(previous)].next }
        let index = Int32(truncatingIfNeeded: elements.count)
        elements.append(Element(slot: slot, next: elements[Int(previous)].next))
        elements[Int(previous)].next = index
        arrays[array].count += 1
    }
}
