import Foundation
import JSONCodec
import Testing
import TransferModels

/// `WireJSON.encode` against the configuration it replaced: Foundation's `JSONEncoder` with
/// `[.withoutEscapingSlashes, .sortedKeys]` and RFC 3339 dates. Every comparison is byte for byte.
@Suite("WireJSON.encode writes exactly what Foundation's JSONEncoder writes")
struct WireJSONEncoderTests {
    // MARK: - Scalars and strings

    @Test func topLevelFragments() throws {
        try expectSame("plain")
        try expectSame(42)
        try expectSame(-0.5)
        try expectSame(true)
        try expectSame(Int?.none)
        try expectSame(String??.some(nil))
        try expectSame([Int]())
        try expectSame([String: Int]())
        try expectSame(Date(timeIntervalSince1970: 1_790_000_000.123))
        try expectSame(Data([0, 1, 2, 250, 255]))
        try expectSame(try #require(URL(string: "https://example.com/a b?q=1#f")))
    }

    @Test func integerExtremes() throws {
        try expectSame([Int.min, -1, 0, 1, 9, 10, 99, 100, Int.max])
        try expectSame([Int8.min, 0, Int8.max])
        try expectSame([Int16.min, 0, Int16.max])
        try expectSame([Int32.min, 0, Int32.max])
        try expectSame([Int64.min, 0, Int64.max])
        try expectSame([UInt.min, UInt.max])
        try expectSame([UInt8.max])
        try expectSame([UInt16.max])
        try expectSame([UInt32.max])
        try expectSame([UInt64.max, 10_000_000_000_000_000_000])
        try expectSame([Int128.min, 0, Int128.max])
        try expectSame([UInt128.max])
        try expectSame(AllScalars())
        try expectSame(AllScalars(useSingleValues: true))
    }

    @Test func doublesAndFloats() throws {
        let doubles: [Double] = [
            0, -0.0, 1, -1, 1.5, 0.1, 0.2 + 0.1, 1e-7, 1e-5, 1e-4, 123.456, 1e15, 1e15 - 1, 1e15 + 1, 9.99e15, 1e16,
            9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_994, 4_503_599_627_370_495.5, 1e21, 1e22,
            1e300, -1e-300, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .pi, 604_800, 60, 0.5, 1_790_000_000.123, 2.5e-8,
        ]
        try expectSame(doubles)
        let floats: [Float] = [
            0, -0.0, 1, 0.1, 1.5, 1e-7, 16_777_216, 16_777_218, 1e7, 1e8, 3.4e38, .leastNonzeroMagnitude,
            .greatestFiniteMagnitude, .pi,
        ]
        try expectSame(floats)
        var generator = SeededGenerator(seed: 7)
        var randomDoubles: [Double] = []
        var randomFloats: [Float] = []
        while randomDoubles.count < 20_000 {
            let bits = generator.next()
            let double = Double(bitPattern: bits)
            if double.isFinite { randomDoubles.append(double) }
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: bits))
            if float.isFinite { randomFloats.append(float) }
            // Whole numbers and short decimals, the values the service really writes.
            let whole = Double(Int64.random(in: -(1 << 55)...(1 << 55), using: &generator) >> Int.random(in: 0...54, using: &generator))
            randomDoubles.append(whole)
            randomDoubles.append(whole / [10, 100, 1000, 3][Int.random(in: 0...3, using: &generator)])
        }
        try expectSame(randomDoubles)
        try expectSame(randomFloats)
        try expectSame(doubles.map { ["value": $0] })
        try expectSame(doubles.map { Double?.some($0) })
    }

    @Test func nonFiniteNumbersThrowTheSameError() throws {
        for value in [Double.nan, .infinity, -.infinity] {
            try expectSameError(value)
            try expectSameError([1, value])
            try expectSameError(["a": ["b": value]])
            try expectSameError(AllScalars(double: value))
            try expectSameError(AllScalars(double: value, useSingleValues: true))
            try expectSameError([AllScalars(double: value, nested: true)])
        }
        for value in [Float.nan, .infinity, -.infinity] {
            try expectSameError(value)
            try expectSameError([value])
            try expectSameError(AllScalars(float: value))
            try expectSameError(AllScalars(float: value, useSingleValues: true))
        }
    }

    @Test func stringEscaping() throws {
        let everyASCII = String((0...0x7F).map { Character(Unicode.Scalar(UInt8($0))) })
        try expectSame(everyASCII)
        try expectSame([
            "", "\"", "\\", "/", "</script>", "a\u{0}b", "\u{7F}", "\u{80}", "\u{2028}\u{2029}", "é", "e\u{301}", "日本語",
            "🇫🇷👩‍👩‍👧", "\u{FEFF}", "\u{FFFD}", "\r\n\t\u{8}\u{C}\u{B}\u{1F}", "line\nbreak", String(repeating: "x\"", count: 300),
        ])
        try expectSame([everyASCII: everyASCII])
    }

    @Test func datesDataURLsAndDecimals() throws {
        var generator = SeededGenerator(seed: 11)
        let dates =
            (0..<500).map { _ in Date(timeIntervalSince1970: Double.random(in: -5e10...5e10, using: &generator)) }
            + [.nowMilliseconds, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.001)]
        try expectSame(dates)
        try expectSame(dates.map { ["at": $0] })
        try expectSame(dates.map { Date?.some($0) } + [nil])
        try expectSame([Data(), Data("hello world".utf8), Data((0...255).map { UInt8($0) })])
        let base = try #require(URL(string: "http://a/b/"))
        try expectSame([
            try #require(URL(string: "http://h/path?query=1&x=%20")), try #require(URL(string: "c/d", relativeTo: base)),
            URL(fileURLWithPath: "/tmp/some file"),
        ])
        try expectSame(["u": try #require(URL(string: "https://h/"))])
        let decimals = ["3.140", "-0.5", "0", "123456789012345678901234567890", "1e-20"].compactMap { Decimal(string: $0) }
        try expectSame(decimals)
        try expectSame(["d": decimals[0]])
    }

    /// Dates are written without `RFC3339.format`'s `String`, so check the bytes against it over many dates.
    @Test func timestampsMatchFormatTimestamp() throws {
        var generator = SeededGenerator(seed: 3339)
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.001), Date(timeIntervalSince1970: -0.0001),
            Date(timeIntervalSince1970: 0.0099), Date(timeIntervalSince1970: -62_135_596_800),  // 0001-01-01
            Date(timeIntervalSince1970: -62_167_219_200), Date(timeIntervalSince1970: -62_167_219_200.001),  // year 0, -1
            Date(timeIntervalSince1970: 253_402_300_799.999), Date(timeIntervalSince1970: 253_402_300_800),  // 9999, 10000
            Date(timeIntervalSince1970: 1e13), Date(timeIntervalSince1970: -1e13), .distantPast, .distantFuture,
            .nowMilliseconds, Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
        ]
        for _ in 0..<50_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -7e10...7e10, using: &generator)))
            // Whole milliseconds as SQLite reads them back: a hair under or over the boundary.
            let milliseconds = Double(Int64.random(in: -5_000_000_000_000...5_000_000_000_000, using: &generator))
            let nudge = [0, 0.25, -1e-7, 1e-7, 0.009, 0.011][Int.random(in: 0...5, using: &generator)]
            dates.append(Date(timeIntervalSince1970: (milliseconds + nudge) / 1000))
        }
        for date in dates {
            let expected = "\"" + WireJSON.formatTimestamp(date) + "\""
            let actual = try WireJSON.encode(date)
            #expect(actual == Array(expected.utf8), "\(date.timeIntervalSince1970): \(text(actual)) vs \(expected)")
        }
    }

    // MARK: - Keys

    @Test func keysSortByTheirUTF8Bytes() throws {
        let keys = [
            "a", "A", "_", "é", "b", "B", "aa", "a10", "a9", "a1", "", " ", "Z", "z", "ä", "Ä", "日", "🙂", "~", "0", "10", "9",
            "\"quoted\"", "back\\slash", "ctl\u{1}", "tab\t", "/", "\u{7F}", "\u{80}", "é\u{301}", "ﬁ", "ß", "ss",
        ]
        try expectSame(MemberList(keys.enumerated().map { ($0.element, $0.offset) }))
        try expectSame(MemberList(keys.reversed().enumerated().map { ($0.element, $0.offset) }))
        try expectSame(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($0.element, $0.offset) }))
        try expectSame([10: "ten", 9: "nine", -1: "minus", 100: "hundred"])
        try expectSame([1.5: "a", 0.5: "b"])
        try expectSame([true: 1])
    }

    @Test func aKeyEncodedTwiceKeepsItsLastValue() throws {
        try expectSame(MemberList([("a", 1), ("b", 2), ("a", 3)]))
        try expectSame(MemberList([("a", 1), ("a", 2), ("a", 3), ("b", 4)]))
        // Canonically equivalent keys are one dictionary key in Foundation: the first spelling stays.
        try expectSame(MemberList([("K", 1), ("\u{212A}", 2), ("é", 3), ("e\u{301}", 4), ("x", 5)]))
        try expectSame(MemberList([("e\u{301}", 1), ("é", 2), ("\u{212B}", 3), ("Å", 4), ("A\u{30A}", 5)]))
    }

    // MARK: - Container semantics

    @Test(arguments: ContainerScenario.allCases)
    func containerScenario(_ scenario: ContainerScenario) throws {
        try expectSame(scenario)
        try expectSame([scenario])
        try expectSame(["wrapped": scenario])
    }

    @Test func classHierarchyWithSuperEncoders() throws {
        try expectSame(Derived(viaSuperEncoder: true))
        try expectSame(Derived(viaSuperEncoder: false))
        try expectSame([Derived(viaSuperEncoder: true)])
    }

    @Test func nothingEncodedAtTheTopLevelThrows() throws {
        try expectSameError(EncodesNothing())
        try expectSame([EncodesNothing()])
        try expectSame(["k": EncodesNothing()])
    }

    @Test func codingPathsAndUserInfoMatch() throws {
        let foundationLog = PathLog()
        let wireLog = PathLog()
        let expected = try foundationEncode(["root": [PathProbe(log: foundationLog)]])
        let actual = try WireJSON.encode(["root": [PathProbe(log: wireLog)]])
        #expect(wireLog.lines == foundationLog.lines)
        #expect(text(actual) == text(expected))
        #expect(actual == expected)
    }

    @Test func nestingLimitMatchesFoundation() throws {
        func nested(_ depth: Int) -> JSONValue {
            (0..<depth - 1).reduce(JSONValue.array([])) { inner, _ in .array([inner]) }
        }
        try expectSame(nested(511))
        try expectSameError(nested(512))
    }

    // MARK: - Randomized documents

    @Test func randomDocuments() throws {
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<300 {
            try expectSame(JSONValue.random(depth: 4, using: &generator))
        }
        for _ in 0..<100 {
            let dictionary = (0..<Int.random(in: 0...8, using: &generator)).reduce(into: [String: [String: [Double]]]()) {
                dictionary, _ in
                dictionary[.randomKey(using: &generator)] = (0..<3).reduce(into: [:]) { inner, _ in
                    inner[.randomKey(using: &generator)] = (0..<4).map { _ in Double.random(in: -1e6...1e6, using: &generator) }
                }
            }
            try expectSame(dictionary)
        }
    }
}

// MARK: - Comparison helpers

func foundationEncode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    encoder.dateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(WireJSON.formatTimestamp(date))
    }
    return Array(try encoder.encode(value))
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

func expectSame<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let expected = try foundationEncode(value)
    let actual = try WireJSON.encode(value)
    let identical = actual == expected  // bytes: `String ==` would equate canonically equivalent text
    #expect(identical, "\(text(actual))\n  vs Foundation\n\(text(expected))", sourceLocation: sourceLocation)
}

/// Both encoders throw `EncodingError.invalidValue` with the same coding path and description.
func expectSameError<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    func describe(_ body: () throws -> [UInt8]) -> String {
        do {
            return "no error: " + text(try body())
        } catch EncodingError.invalidValue(let invalid, let context) {
            let path = context.codingPath.map { "\($0.stringValue)/\($0.intValue.map(String.init) ?? "-")" }
            return "invalidValue \(invalid) at \(path): \(context.debugDescription)"
        } catch {
            return "other error: \(error)"
        }
    }
    let expected = describe { try foundationEncode(value) }
    let actual = describe { try WireJSON.encode(value) }
    #expect(expected.hasPrefix("invalidValue"), sourceLocation: sourceLocation)
    #expect(actual == expected, sourceLocation: sourceLocation)
}

struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {  // SplitMix64
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    private static let pieces = [
        "a", "b", "Z", "_", "0", "9", "é", "e\u{301}", "\u{212A}", "K", "日本", "🙂", "\"", "\\", "/", "\n", "\u{1}", "\u{7F}",
        "\u{2028}", " ", "key", "Key", "ß",
    ]

    static func randomKey(using generator: inout some RandomNumberGenerator) -> String {
        (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }
}

extension JSONValue {
    static func random(depth: Int, using generator: inout some RandomNumberGenerator) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .string(.randomKey(using: &generator))
        case 3: return .number(JSONNumber(Int64.random(in: .min ... .max, using: &generator) >> Int.random(in: 0...63, using: &generator)))
        case 4: return .number(JSONNumber(Double.random(in: -1e9...1e9, using: &generator) / 7)!)
        case 5: return .array((0..<Int.random(in: 0...5, using: &generator)).map { _ in random(depth: depth - 1, using: &generator) })
        default:
            let members = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                (key: String.randomKey(using: &generator), value: random(depth: depth - 1, using: &generator))
            }
            return .object(JSONObject(members))
        }
    }
}
