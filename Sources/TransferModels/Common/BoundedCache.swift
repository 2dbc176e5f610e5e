/// A dictionary that holds at most `capacity` entries: inserting past it forgets the oldest inserted first.
///
/// For the read caches in front of the store: memory stays bounded whatever ids clients ask for, and a
/// forgotten entry costs one query, never a wrong answer.
public struct BoundedCache<Key: Hashable, Value> {
    public let capacity: Int
    private var entries: [Key: (value: Value, serial: UInt64)] = [:]
    /// Insertion order, oldest first from `head`; an item whose serial no longer matches its entry's was
    /// replaced or removed since, and is skipped.
    private var order: [(key: Key, serial: UInt64)] = []
    private var head = 0
    private var nextSerial: UInt64 = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "a bounded cache holds at least one entry")
        self.capacity = capacity
    }

    public var count: Int { entries.count }

    public subscript(key: Key) -> Value? { entries[key]?.value }

    /// Keeps `value` for `key` and returns what was forgotten to make room.
    @discardableResult
    public mutating func insert(_ value: Value, for key: Key) -> [(key: Key, value: Value)] {
        nextSerial += 1
        entries[key] = (value, nextSerial)
        order.append((key, nextSerial))
        var evicted: [(key: Key, value: Value)] = []
        while entries.count > capacity, let oldest = popOldest() { evicted.append(oldest) }
        // Replacements leave dead items behind: the order is rebuilt before it outgrows the entries twice.
        if order.count - head > 2 * capacity { compact() }
        return evicted
    }

    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? { entries.removeValue(forKey: key)?.value }

    public mutating func removeAll() {
        entries = [:]
        order = []
        head = 0
    }

    private mutating func popOldest() -> (key: Key, value: Value)? {
        while head < order.count {
            let item = order[head]
            head += 1
            if let entry = entries[item.key], entry.serial == item.serial {
                entries.removeValue(forKey: item.key)
                return (item.key, entry.value)
            }
        }
        return nil
    }

    private mutating func compact() {
        order = order[head...].filter { entries[$0.key]?.serial == $0.serial }
        head = 0
    }
}

extension BoundedCache: Sendable where Key: Sendable, Value: Sendable {}
