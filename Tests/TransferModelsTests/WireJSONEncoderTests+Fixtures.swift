import Foundation

/// Encodable values that drive the encoder through each kind of container call, for `WireJSONEncoderTests`.

struct AnyKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String

    init(stringValue: String) { self.stringValue = stringValue }
    init(stringLiteral value: String) { stringValue = value }
    init?(intValue: Int) { nil }
    var intValue: Int? { nil }
}

/// Members encoded in this order, repeated keys included.
struct MemberList: Encodable {
    var members: [(String, Int)]

    init(_ members: [(String, Int)]) { self.members = members }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for (key, value) in members { try container.encode(value, forKey: AnyKey(stringValue: key)) }
    }
}

/// A value that encodes nothing at all.
struct EncodesNothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

/// One scalar through the single value container's concrete `encode` overloads.
enum Scalar: Encodable {
    case bool(Bool)
    case string(String)
    case double(Double)
    case float(Float)
    case null
    case int(Int)
    case int8(Int8)
    case int16(Int16)
    case int32(Int32)
    case int64(Int64)
    case int128(Int128)
    case uint(UInt)
    case uint8(UInt8)
    case uint16(UInt16)
    case uint32(UInt32)
    case uint64(UInt64)
    case uint128(UInt128)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .float(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .int(let value): try container.encode(value)
        case .int8(let value): try container.encode(value)
        case .int16(let value): try container.encode(value)
        case .int32(let value): try container.encode(value)
        case .int64(let value): try container.encode(value)
        case .int128(let value): try container.encode(value)
        case .uint(let value): try container.encode(value)
        case .uint8(let value): try container.encode(value)
        case .uint16(let value): try container.encode(value)
        case .uint32(let value): try container.encode(value)
        case .uint64(let value): try container.encode(value)
        case .uint128(let value): try container.encode(value)
        }
    }
}

/// Every scalar type through the keyed, unkeyed (and optionally single value) containers' overloads.
struct AllScalars: Encodable {
    var double: Double = 2.5
    var float: Float = 1.25
    var useSingleValues = false
    /// Writes the keyed members into a nested container, whose errors Foundation reports without the nesting.
    var nested = false

    private var scalars: [Scalar] {
        [
            .bool(true), .string("s/é\n"), .double(double), .float(float), .null, .int(.min), .int8(.min), .int16(.min),
            .int32(.min), .int64(.min), .int128(.min), .uint(.max), .uint8(.max), .uint16(.max), .uint32(.max),
            .uint64(.max), .uint128(.max),
        ]
    }

    func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: AnyKey.self)
        var keyed = nested ? root.nestedContainer(keyedBy: AnyKey.self, forKey: "nested") : root
        for (index, scalar) in scalars.enumerated() {
            let key = AnyKey(stringValue: "k\(index)")
            if useSingleValues {
                try keyed.encode(scalar, forKey: key)
                continue
            }
            switch scalar {
            case .bool(let value): try keyed.encode(value, forKey: key)
            case .string(let value): try keyed.encode(value, forKey: key)
            case .double(let value): try keyed.encode(value, forKey: key)
            case .float(let value): try keyed.encode(value, forKey: key)
            case .null: try keyed.encodeNil(forKey: key)
            case .int(let value): try keyed.encode(value, forKey: key)
            case .int8(let value): try keyed.encode(value, forKey: key)
            case .int16(let value): try keyed.encode(value, forKey: key)
            case .int32(let value): try keyed.encode(value, forKey: key)
            case .int64(let value): try keyed.encode(value, forKey: key)
            case .int128(let value): try keyed.encode(value, forKey: key)
            case .uint(let value): try keyed.encode(value, forKey: key)
            case .uint8(let value): try keyed.encode(value, forKey: key)
            case .uint16(let value): try keyed.encode(value, forKey: key)
            case .uint32(let value): try keyed.encode(value, forKey: key)
            case .uint64(let value): try keyed.encode(value, forKey: key)
            case .uint128(let value): try keyed.encode(value, forKey: key)
            }
        }
        var unkeyed = keyed.nestedUnkeyedContainer(forKey: "unkeyed")
        for scalar in scalars {
            switch scalar {
            case .bool(let value): try unkeyed.encode(value)
            case .string(let value): try unkeyed.encode(value)
            case .double(let value): try unkeyed.encode(value)
            case .float(let value): try unkeyed.encode(value)
            case .null: try unkeyed.encodeNil()
            case .int(let value): try unkeyed.encode(value)
            case .int8(let value): try unkeyed.encode(value)
            case .int16(let value): try unkeyed.encode(value)
            case .int32(let value): try unkeyed.encode(value)
            case .int64(let value): try unkeyed.encode(value)
            case .int128(let value): try unkeyed.encode(value)
            case .uint(let value): try unkeyed.encode(value)
            case .uint8(let value): try unkeyed.encode(value)
            case .uint16(let value): try unkeyed.encode(value)
            case .uint32(let value): try unkeyed.encode(value)
            case .uint64(let value): try unkeyed.encode(value)
            case .uint128(let value): try unkeyed.encode(value)
            }
        }
        try keyed.encodeIfPresent(Int?.none, forKey: "absent")
        try keyed.encodeIfPresent(Int?.some(1), forKey: "present")
        try keyed.encodeConditional(ReferenceValue(), forKey: "conditional")
    }
}

final class ReferenceValue: Encodable {
    let name = "reference"
}

/// The container calls whose results are easy to get wrong: reuse, reopening, overwriting, super encoders.
enum ContainerScenario: String, CaseIterable, Encodable, Sendable {
    case emptyKeyed, emptyUnkeyed, keyedTwice, unkeyedTwice, nestedKeyedReused, nestedUnkeyedReused
    case reopenEncodedObject, reopenEncodedArray, overwriteNested, overwriteNestedThenReopen
    case singleObjectThenKeyed, singleArrayThenUnkeyed, superEncoder, superEncoderForKey, superEncoderLeftEmpty
    case superEncoderReleasedLate, unkeyedSuperEncoderInserted, unkeyedNesting, nothingInContainers
    case superEncoderOfNestedContainer, singleValueOfEveryKind

    private enum OtherKey: String, CodingKey { case second }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .emptyKeyed:
            _ = encoder.container(keyedBy: AnyKey.self)
        case .emptyUnkeyed:
            _ = encoder.unkeyedContainer()
        case .keyedTwice:
            var first = encoder.container(keyedBy: AnyKey.self)
            try first.encode(1, forKey: "first")
            var second = encoder.container(keyedBy: OtherKey.self)
            try second.encode("two", forKey: .second)
            try first.encode(3, forKey: "third")
        case .unkeyedTwice:
            var first = encoder.unkeyedContainer()
            try first.encode(1)
            var second = encoder.unkeyedContainer()
            try second.encode(2)
            try first.encode(3)
        case .nestedKeyedReused:
            var container = encoder.container(keyedBy: AnyKey.self)
            var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: "n")
            try nested.encode("a", forKey: "a")
            var again = container.nestedContainer(keyedBy: AnyKey.self, forKey: "n")
            try again.encode("b", forKey: "b")
            try nested.encode("c", forKey: "c")
        case .nestedUnkeyedReused:
            var container = encoder.container(keyedBy: AnyKey.self)
            var nested = container.nestedUnkeyedContainer(forKey: "n")
            try nested.encode(1)
            var again = container.nestedUnkeyedContainer(forKey: "n")
            try again.encode(2)
            try nested.encode(3)
        case .reopenEncodedObject:
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode(["x": 1], forKey: "n")
            var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: "n")
            try nested.encode(2, forKey: "y")
        case .reopenEncodedArray:
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode([1], forKey: "n")
            var nested = container.nestedUnkeyedContainer(forKey: "n")
            try nested.encode(2)
        case .overwriteNested:
            var container = encoder.container(keyedBy: AnyKey.self)
            var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: "n")
            try nested.encode(1, forKey: "a")
            try container.encode("plain", forKey: "n")
            try nested.encode(2, forKey: "b")
        case .overwriteNestedThenReopen:
            var container = encoder.container(keyedBy: AnyKey.self)
            var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: "n")
            try nested.encode(1, forKey: "a")
            try container.encode(["z": 0], forKey: "n")
            try nested.encode(2, forKey: "b")
            var reopened = container.nestedContainer(keyedBy: AnyKey.self, forKey: "n")
            try reopened.encode(3, forKey: "c")
        case .singleObjectThenKeyed:
            var single = encoder.singleValueContainer()
            try single.encode(["a": 1])
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode(2, forKey: "b")
        case .singleArrayThenUnkeyed:
            var single = encoder.singleValueContainer()
            try single.encode([1])
            var container = encoder.unkeyedContainer()
            try container.encode(2)
        case .superEncoder:
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode(1, forKey: "a")
            var single = container.superEncoder().singleValueContainer()
            try single.encode("s")
        case .superEncoderForKey:
            var container = encoder.container(keyedBy: AnyKey.self)
            var inner = container.superEncoder(forKey: "parent").container(keyedBy: AnyKey.self)
            try inner.encode(true, forKey: "inherited")
            try container.encode(2, forKey: "z")
        case .superEncoderLeftEmpty:
            var container = encoder.container(keyedBy: AnyKey.self)
            _ = container.superEncoder(forKey: "p")
            try container.encode(1, forKey: "a")
        case .superEncoderReleasedLate:
            var container = encoder.container(keyedBy: AnyKey.self)
            let late = container.superEncoder(forKey: "a")
            try withExtendedLifetime(late) {
                try container.encode(1, forKey: "a")
                var single = late.singleValueContainer()
                try single.encode("late")
                try container.encode(2, forKey: "b")
            }
        case .unkeyedSuperEncoderInserted:
            var container = encoder.unkeyedContainer()
            try container.encode(1)
            let late = container.superEncoder()
            try withExtendedLifetime(late) {
                try container.encode(2)
                var single = late.singleValueContainer()
                try single.encode("inserted")
                try container.encode(3)
            }
        case .unkeyedNesting:
            var container = encoder.unkeyedContainer()
            var object = container.nestedContainer(keyedBy: AnyKey.self)
            try object.encode(1, forKey: "b")
            try object.encode(2, forKey: "a")
            var list = container.nestedUnkeyedContainer()
            try list.encodeNil()
            var deeper = list.nestedUnkeyedContainer()
            try deeper.encode("deep")
            try container.encode([String: Int]())
            try container.encode([[Int]]())
        case .nothingInContainers:
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode(EncodesNothing(), forKey: "keyed")
            var list = container.nestedUnkeyedContainer(forKey: "list")
            try list.encode(EncodesNothing())
        case .superEncoderOfNestedContainer:
            var container = encoder.container(keyedBy: AnyKey.self)
            var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: "n")
            var list = nested.superEncoder().unkeyedContainer()
            try list.encode(1)
            var inner = nested.nestedUnkeyedContainer(forKey: "list")
            try inner.encode(0)
            var single = inner.superEncoder().singleValueContainer()
            try single.encode("first")
        case .singleValueOfEveryKind:
            var container = encoder.unkeyedContainer()
            try container.encode(Scalar.bool(false))
            try container.encode(Scalar.null)
            try container.encode(Int?.none)
            try container.encode(String??.some(.none))
            try container.encode([Int?.none, 1])
        }
    }
}

class BaseRecord: Encodable {
    var base = "b"

    enum CodingKeys: String, CodingKey { case base, shared }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode("from base", forKey: .shared)
    }
}

final class Derived: BaseRecord {
    let viaSuperEncoder: Bool

    init(viaSuperEncoder: Bool) {
        self.viaSuperEncoder = viaSuperEncoder
        super.init()
    }

    enum DerivedKeys: String, CodingKey { case derived, shared }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DerivedKeys.self)
        try container.encode(1, forKey: .derived)
        try container.encode("from derived", forKey: .shared)
        try super.encode(to: viaSuperEncoder ? container.superEncoder() : encoder)
    }
}

/// Coding paths (and the user info size) seen at each step of a `PathProbe`.
final class PathLog {
    var lines: [String] = []

    func record(_ label: String, _ path: [any CodingKey]) {
        lines.append(label + ": " + path.map { "\($0.stringValue)|\($0.intValue.map(String.init) ?? "-")" }.joined(separator: "."))
    }
}

struct PathLeaf: Encodable {
    let log: PathLog
    let label: String

    func encode(to encoder: any Encoder) throws {
        log.record(label, encoder.codingPath)
        var container = encoder.singleValueContainer()
        log.record(label + " single", container.codingPath)
        try container.encode(label)
    }
}

struct PathProbe: Encodable {
    let log: PathLog

    func encode(to encoder: any Encoder) throws {
        log.record("encoder", encoder.codingPath)
        log.lines.append("userInfo: \(encoder.userInfo.count)")
        var keyed = encoder.container(keyedBy: AnyKey.self)
        log.record("keyed", keyed.codingPath)
        try keyed.encode(PathLeaf(log: log, label: "leaf"), forKey: "leaf")
        var nested = keyed.nestedContainer(keyedBy: AnyKey.self, forKey: "nested")
        log.record("nested", nested.codingPath)
        try nested.encode(PathLeaf(log: log, label: "nested leaf"), forKey: "leaf")
        var unkeyed = nested.nestedUnkeyedContainer(forKey: "list")
        log.record("unkeyed", unkeyed.codingPath)
        try unkeyed.encode(PathLeaf(log: log, label: "element 0"))
        try unkeyed.encode(PathLeaf(log: log, label: "element 1"))
        var inner = unkeyed.nestedContainer(keyedBy: AnyKey.self)
        log.record("inner", inner.codingPath)
        try inner.encode(PathLeaf(log: log, label: "inner leaf"), forKey: "x")
        var innerList = unkeyed.nestedUnkeyedContainer()
        log.record("inner list", innerList.codingPath)
        try innerList.encode(PathLeaf(log: log, label: "inner element"))
        try PathLeaf(log: log, label: "super").encode(to: keyed.superEncoder())
        try PathLeaf(log: log, label: "super for key").encode(to: nested.superEncoder(forKey: "sup"))
        try PathLeaf(log: log, label: "unkeyed super").encode(to: unkeyed.superEncoder())
        try keyed.encode([PathLeaf(log: log, label: "in array")], forKey: "array")
        try keyed.encode(["k": PathLeaf(log: log, label: "in dictionary")], forKey: "dictionary")
        try keyed.encode(Optional(PathLeaf(log: log, label: "optional")), forKey: "optional")
    }
}
