/// A JSON object that keeps its members in document order.
///
/// Lookups scan small objects linearly (comparing a few short strings beats hashing them, which
/// dominated parse time) and use a key index above ``indexThreshold`` members.
/// Equality ignores member order, as JSON object semantics do.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
    public typealias Element = (key: String, value: JSONValue)

    private var members: [Element]
    /// Key → position; non-nil exactly when there are more than `indexThreshold` members.
    private var positions: [String: Int]?

    /// Member count above which lookups go through a hash index.
    static let indexThreshold = 12

    public init() { (members, positions) = ([], nil) }

    /// Builds an object from members in order; a repeated key keeps its first position and last value.
    public init(_ members: [Element]) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// For the parser, which has already merged or rejected duplicate keys (and may have built the index).
    init(uniqueMembers members: [Element], positions: [String: Int]?) {
        self.members = members
        self.positions = positions ?? (members.count > Self.indexThreshold ? Self.index(members) : nil)
    }

    static func index(_ members: [Element]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(members.count)
        for (position, member) in members.enumerated() { positions[member.key] = position }
        return positions
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.key == key }
    }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Element { members[position] }

    /// The keys in document order.
    public var keys: [String] { members.map(\.key) }

    /// The member named `key`; setting nil removes it, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            switch (position(of: key), newValue) {
            case (let position?, let value?): members[position].value = value
            case (nil, let value?):
                members.append((key, value))
                if positions != nil {
                    positions?[key] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    positions = Self.index(members)
                }
            case (let position?, nil):
                members.remove(at: position)
                positions = members.count > Self.indexThreshold ? Self.index(members) : nil
            case (nil, nil): break
            }
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==: XOR of per-member hashes, as Dictionary does.
        var combined = 0
        for (key, value) in members {
            var memberHasher = Hasher()
            memberHasher.combine(key)
            memberHasher.combine(value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}
