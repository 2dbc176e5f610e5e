/// Thrown for containers nested 512 deep, where Foundation's `JSONWriter` gives up.
struct JSONNestingTooDeep: Error {}

extension JSONDocument {
    /// Foundation's `JSONWriter.maximumRecursionDepth`.
    private static var maximumDepth: Int { 512 }

    /// The finished document whose root is `slot`, each object's members sorted by their keys' UTF-8 bytes
    /// (what `.sortedKeys` does outside Apple platforms) with one value per key.
    func serialize(_ slot: JSONSlot) throws(JSONNestingTooDeep) -> [UInt8] {
        if case .bytes(let start, let end) = slot {
            return Array(UnsafeBufferPointer(start: bytes.base + start, count: end - start))
        }
        let output = JSONByteBuffer(capacity: bytes.count + bytes.count / 2, literals: false)
        try write(slot, to: output, depth: 0)
        return output.contents
    }

    private func write(_ slot: JSONSlot, to output: JSONByteBuffer, depth: Int) throws(JSONNestingTooDeep) {
        switch slot {
        case .bytes(let start, let end):
            output.append(bytes.base + start, count: end - start)
        case .object(let object):
            try write(object: object, to: output, depth: depth + 1)
        case .array(let array):
            guard depth + 1 < Self.maximumDepth else { throw JSONNestingTooDeep() }
            output.append(UInt8(ascii: "["))
            var index = arrays[array].head
            while index >= 0 {
                if index != arrays[array].head { output.append(UInt8(ascii: ",")) }
                let element = elements[Int(index)]
                try write(element.slot, to: output, depth: depth + 1)
                index = element.next
            }
            output.append(UInt8(ascii: "]"))
        }
    }

    /// A member as gathered for sorting: plain values on the stack.
    private struct SortEntry {
        var keyStart: Int
        var keyCount: Int32
        var keyNeedsEscaping: Bool
        var slot: JSONSlot
    }

    /// What is sorted: 16 bytes, the entry's key prefix and position (its encoding order).
    private struct SortKey {
        var prefix: UInt64
        var position: Int
    }

    private func write(object: Int, to output: JSONByteBuffer, depth: Int) throws(JSONNestingTooDeep) {
        guard depth < Self.maximumDepth else { throw JSONNestingTooDeep() }
        let record = objects[object]
        let capacity = Int(record.count)
        output.append(UInt8(ascii: "{"))
        try withUnsafeTemporaryAllocation(of: SortEntry.self, capacity: capacity) {
            (entries) throws(JSONNestingTooDeep) in
            try withUnsafeTemporaryAllocation(of: SortKey.self, capacity: capacity) {
                (keys) throws(JSONNestingTooDeep) in
                var count = 0
                var index = record.head
                while index >= 0 {
                    let member = members[Int(index)]
                    entries.initializeElement(
                        at: count,
                        to: SortEntry(
                            keyStart: member.keyStart, keyCount: member.keyCount,
                            keyNeedsEscaping: member.keyNeedsEscaping, slot: member.slot))
                    keys.initializeElement(at: count, to: SortKey(prefix: member.prefix, position: count))
                    count += 1
                    index = member.next
                }
                if record.hasNonASCIIKey { count = mergeEquivalentKeys(entries, keys, count: count) }
                let base = UnsafePointer(bytes.base)
                func key(_ position: Int) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(start: base + entries[position].keyStart, count: Int(entries[position].keyCount))
                }
                var sorted = UnsafeMutableBufferPointer(rebasing: keys[..<count])
                sorted.sort { a, b in
                    if a.prefix != b.prefix { return a.prefix < b.prefix }
                    let (left, right) = (key(a.position), key(b.position))
                    return left.elementsEqual(right) ? a.position < b.position : left.lexicographicallyPrecedes(right)
                }
                var first = true
                for index in 0..<count {
                    let position = sorted[index].position
                    // Of a run of one key (sorted in encoding order), the last value wins.
                    if index + 1 < count, sorted[index].prefix == sorted[index + 1].prefix,
                        key(position).elementsEqual(key(sorted[index + 1].position))
                    {
                        continue
                    }
                    if !first { output.append(UInt8(ascii: ",")) }
                    first = false
                    if entries[position].keyNeedsEscaping {
                        output.appendString(utf8: key(position))
                        output.append(UInt8(ascii: ":"))
                    } else {
                        output.appendQuotedKey(key(position))
                    }
                    try write(entries[position].slot, to: output, depth: depth)
                }
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Foundation keeps members in a `[String: Value]`, where canonically equivalent keys (`"é"` and
    /// `"e\u{301}"`, `"K"` and KELVIN SIGN) are one key: the first spelling stays, the last value wins. Keys that
    /// are all ASCII can only collide byte for byte, which the sort puts side by side.
    private func mergeEquivalentKeys(
        _ entries: UnsafeMutableBufferPointer<SortEntry>, _ keys: UnsafeMutableBufferPointer<SortKey>, count: Int
    ) -> Int {
        var positions: [String: Int] = [:]
        var kept = 0
        for index in 0..<count {
            let entry = entries[index]
            let key = String(
                decoding: UnsafeBufferPointer(start: bytes.base + entry.keyStart, count: Int(entry.keyCount)),
                as: UTF8.self)
            if let position = positions[key] {
                entries[position].slot = entry.slot
            } else {
                positions[key] = kept
                entries[kept] = entry
                keys[kept] = SortKey(prefix: keys[index].prefix, position: kept)
                kept += 1
            }
        }
        return kept
    }
}
