import Foundation
import JSONCodec
import Testing

@Suite("JSONParser")
struct JSONParserTests {
    // MARK: Valid documents

    @Test(
        arguments: [
            ("null", JSONValue.null),
            ("true", .bool(true)),
            (" false ", .bool(false)),
            ("0", 0),
            ("-0", .number(JSONNumber(text: "-0")!)),
            ("123", 123),
            ("-1.5e+3", .number(JSONNumber(text: "-1.5e+3")!)),
            ("\"\"", ""),
            ("\"héllo 🌍\"", "héllo 🌍"),
            ("[]", []),
            ("{}", [:]),
            ("[1, [2, [3]], {\"a\": null}]", [1, [2, [3]], ["a": nil]]),
            ("\r\n\t{ \"a\" : [ true , false ] }\n", ["a": [true, false]]),
            (#"{"a":{"b":{"c":"d"}}}"#, ["a": ["b": ["c": "d"]]]),
        ] as [(String, JSONValue)])
    func parsesValidDocuments(input: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(input) == expected)
    }

    @Test func parsesDataAndByteArrays() throws {
        let text = #"{"k": [1, "two"]}"#
        let expected: JSONValue = ["k": [1, "two"]]
        #expect(try JSONParser.parse(Data(text.utf8)) == expected)
        #expect(try JSONParser.parse(Array(text.utf8)) == expected)
        #expect(try JSONParser.parse(Array(text.utf8)[...]) == expected)
    }

    @Test func keepsMemberOrderAndNumberText() throws {
        let value = try JSONParser.parse(#"{"z": 1.0, "a": 1, "m": 12345678901234567890123}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["z", "a", "m"])
        #expect(object["z"]?.numberValue?.text == "1.0")
        #expect(object["z"] != object["a"])  // 1.0 and 1 are different literals
        #expect(object["m"]?.numberValue?.text == "12345678901234567890123")
        #expect(value.description == #"{"z":1.0,"a":1,"m":12345678901234567890123}"#)
    }

    // MARK: Strings

    @Test(arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""\u0041\u00e9\u4E2D""#, "Aé中"),
        (#""\u0000""#, "\u{0}"),
        (#""\ud83d\ude00""#, "😀"),
        (#""a\uD834\uDD1Eb""#, "a𝄞b"),
        (#""plain then \n escape""#, "plain then \n escape"),
    ])
    func decodesEscapes(input: String, expected: String) throws {
        #expect(try JSONParser.parse(input) == .string(expected))
    }

    @Test func serializationRoundTrips() throws {
        let original: JSONValue = ["s": "q\"b\\n\n\u{1}é😀", "a": [1.5, -2, nil, true], "o": [:]]
        let text = original.description
        #expect(text == #"{"s":"q\"b\\n\n\u0001é😀","a":[1.5,-2,null,true],"o":{}}"#)
        #expect(try JSONParser.parse(text) == original)
    }

    // MARK: Syntax errors

    struct SyntaxCase: Sendable, CustomTestStringConvertible {
        let input: String
        let line: Int
        let column: Int
        let message: String
        init(_ input: String, _ line: Int, _ column: Int, _ message: String) {
            (self.input, self.line, self.column, self.message) = (input, line, column, message)
        }
        var testDescription: String { input.debugDescription }
    }

    @Test(arguments: [
        SyntaxCase("", 1, 1, "the body is empty"),
        SyntaxCase("  \n ", 2, 2, "the body contains only whitespace"),
        SyntaxCase("\u{FEFF}{}", 1, 1, "a byte order mark is not allowed"),
        SyntaxCase("[1,]", 1, 4, "trailing commas are not allowed"),
        SyntaxCase("{\"a\":1,}", 1, 8, "trailing commas are not allowed"),
        SyntaxCase("{\"a\":1 // no\n}", 1, 8, "comments are not allowed"),
        SyntaxCase("[/* c */ 1]", 1, 2, "comments are not allowed"),
        SyntaxCase("NaN", 1, 1, "NaN and Infinity are not allowed"),
        SyntaxCase("[-Infinity]", 1, 2, "NaN and Infinity are not allowed"),
        SyntaxCase("Infinity", 1, 1, "NaN and Infinity are not allowed"),
        SyntaxCase("012", 1, 1, "leading zeros are not allowed"),
        SyntaxCase("[-01]", 1, 2, "leading zeros are not allowed"),
        SyntaxCase("-", 1, 2, "unexpected end of input, expected a digit after '-'"),
        SyntaxCase("1.", 1, 3, "unexpected end of input, expected a digit after the decimal point"),
        SyntaxCase("1.e5", 1, 3, "expected a digit after the decimal point, found character 'e'"),
        SyntaxCase("1e+", 1, 4, "unexpected end of input, expected a digit in the exponent"),
        SyntaxCase(".5", 1, 1, "expected a value, found character '.'"),
        SyntaxCase("+1", 1, 1, "expected a value, found character '+'"),
        SyntaxCase("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "expected ':' after an object key, found character '2'"),
        SyntaxCase("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after an object member, found character '\"'"),
        SyntaxCase("[1 2]", 1, 4, "expected ',' or ']' after an array element, found character '2'"),
        SyntaxCase("{a: 1}", 1, 2, "expected a string key or '}', found character 'a'"),
        SyntaxCase("{\"a\": 1, 2}", 1, 10, "expected a string key after ',', found character '2'"),
        SyntaxCase("{'a': 1}", 1, 2, "strings must use double quotes"),
        SyntaxCase("[1", 1, 3, "unexpected end of input, expected ',' or ']' after an array element"),
        SyntaxCase("{\"a\":", 1, 6, "unexpected end of input, expected a value"),
        SyntaxCase("[tru]", 1, 2, "invalid literal, expected 'true'"),
        SyntaxCase("nul", 1, 1, "invalid literal, expected 'null'"),
        SyntaxCase("{} {}", 1, 4, "unexpected character '{' after the JSON value"),
        SyntaxCase("truex", 1, 5, "unexpected character 'x' after the JSON value"),
        SyntaxCase("\"abc", 1, 1, "unterminated string"),
        SyntaxCase("\"a\tb\"", 1, 3, "unescaped control character U+0009 in a string"),
        SyntaxCase("\"a\nb\"", 1, 3, "unescaped control character U+000A in a string"),
        SyntaxCase(#""\x""#, 1, 2, "invalid escape sequence"),
        SyntaxCase(#""\u12G4""#, 1, 2, "invalid \\u escape, expected 4 hexadecimal digits"),
        SyntaxCase(#""\uDC00""#, 1, 2, "unpaired surrogate U+DC00 in a \\u escape"),
        SyntaxCase(#""\uD800""#, 1, 2, "unpaired surrogate U+D800 in a \\u escape"),
        SyntaxCase(#""\uD800\n""#, 1, 2, "unpaired surrogate U+D800 in a \\u escape"),
        SyntaxCase(#""\uD800\u0041""#, 1, 2, "unpaired surrogate U+D800 in a \\u escape"),
        SyntaxCase("[\"é\", é]", 1, 7, "expected a value, found character 'é'"),
        SyntaxCase("\r\n[\r\n1,\r\n?]", 4, 1, "expected a value, found character '?'"),
        SyntaxCase("\r[x]", 2, 2, "expected a value, found character 'x'"),
    ])
    func reportsSyntaxErrors(_ testCase: SyntaxCase) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(testCase.input) }
        #expect(error.message == testCase.message)
        #expect(error.line == testCase.line)
        #expect(error.column == testCase.column)
    }

    @Test func errorDescriptionNamesLineAndColumn() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{\n\"a\" 1}") }
        do {
            _ = try JSONParser.parse("{\n\"a\" 1}")
        } catch {
            #expect(error.description == "line 2, column 5: expected ':' after an object key, found character '1'")
            #expect(!error.isEmptyInput)
        }
    }

    /// Duplicate keys are valid JSON (JSONTestSuite's y_object_duplicated_key): by default one member
    /// stays, where the key came first, with its last value; request bodies ask for an error instead.
    @Test func duplicateKeysKeepTheLastValueOrFailOnRequest() throws {
        let input = "{\"a\": 1, \"b\": {\"x\": 1, \"y\": 0, \"x\": 2}}"
        let value = try JSONParser.parse(input)
        #expect(value == ["a": 1, "b": ["x": 2, "y": 0]])
        #expect(value["b"]?.objectValue?.keys == ["x", "y"])
        #expect(value.description == #"{"a":1,"b":{"x":2,"y":0}}"#)
        #expect(throws: JSONSyntaxError(line: 1, column: 32, byteOffset: 31, message: "duplicate key \"x\" in an object")) {
            try JSONParser.parse(input, duplicateKeys: .reject)
        }
        // The same key in different objects is no duplicate.
        #expect(throws: Never.self) { try JSONParser.parse(#"[{"a":1},{"a":2}]"#, duplicateKeys: .reject) }
    }

    @Test(arguments: [1, 63, 64])
    func acceptsNestingUpToTheLimit(depth: Int) throws {
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try JSONParser.parse(arrays) }
        let objects = String(repeating: "{\"k\":", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        #expect(throws: Never.self) { try JSONParser.parse(objects) }
    }

    @Test(arguments: [65, 100, 100_000])
    func rejectsNestingBeyondTheLimit(depth: Int) {
        let input = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: JSONSyntaxError(line: 1, column: 65, byteOffset: 64, message: "nesting is deeper than 64 levels")) {
            try JSONParser.parse(input)
        }
    }

    @Test(
        arguments: [
            ([0x22, 0xFF, 0x22], 1),  // never valid
            ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong "/"
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // overlong 3-byte
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // encoded surrogate U+D800
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
            ([0x22, 0x61, 0xC3, 0x22], 2),  // truncated 2-byte sequence
            ([0x22, 0xE2, 0x82, 0x22], 1),  // truncated 3-byte sequence
            ([0x22, 0x5C, 0x6E, 0x80, 0x22], 3),  // lone continuation byte after an escape
            ([0x5B, 0x80, 0x5D], 1),  // outside a string
        ] as [([UInt8], Int)])
    func rejectsInvalidUTF8(bytes: [UInt8], offset: Int) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
        #expect(error.byteOffset == offset)
        #expect(error.message.contains("invalid UTF-8"))
    }

    @Test func acceptsValidMultiByteUTF8() throws {
        let bytes: [UInt8] = [0x22, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]
        #expect(try JSONParser.parse(bytes) == .string("é€😀\u{10FFFF}"))
    }

    // MARK: Numbers

    @Test(
        arguments: [
            ("0", Int64(0), UInt64(0), true),
            ("-0", 0, 0, true),
            ("9223372036854775807", .max, 9_223_372_036_854_775_807, true),
            ("-9223372036854775808", .min, nil, true),
            ("9223372036854775808", nil, 9_223_372_036_854_775_808, true),
            ("18446744073709551615", nil, .max, true),
            ("18446744073709551616", nil, nil, true),
            ("123456789012345678901234567890", nil, nil, true),
            ("1.0", 1, 1, true),
            ("1e2", 100, 100, true),
            ("12.50e1", 125, 125, true),
            ("1E+2", 100, 100, true),
            ("-2.5e1", -25, nil, true),
            ("1.5", nil, nil, false),
            ("1e-2", nil, nil, false),
            ("100e-2", 1, 1, true),
            ("0.000e999999999999999999", 0, 0, true),
            ("1e999999999999999999", nil, nil, true),
            ("-1", -1, nil, true),
        ] as [(String, Int64?, UInt64?, Bool)])
    func convertsNumbersExactly(text: String, int64: Int64?, uint64: UInt64?, integral: Bool) throws {
        let number = try #require(JSONNumber(text: text))
        #expect(number.int64 == int64)
        #expect(number.uint64 == uint64)
        #expect(number.isIntegral == integral)
    }

    @Test func doublesAreFiniteOrNil() throws {
        #expect(JSONNumber(text: "1.5")?.double == 1.5)
        #expect(JSONNumber(text: "9007199254740993")?.double == 9_007_199_254_740_992)
        #expect(JSONNumber(text: "1e400")?.double == nil)
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double(0.1))?.text == "0.1")
    }

    @Test(arguments: ["+1", "01", " 1", "1 ", "NaN", "1.", "", "\"1\"", "0x10"])
    func rejectsInvalidNumberText(text: String) {
        #expect(JSONNumber(text: text) == nil)
    }

    // MARK: Objects

    @Test func objectEqualityIgnoresOrderButKeepsIt() throws {
        let a = try JSONParser.parse(#"{"x": 1, "y": [2]}"#)
        let b = try JSONParser.parse(#"{"y": [2], "x": 1}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(a.objectValue?.keys == ["x", "y"])
        #expect(a != (try JSONParser.parse(#"{"x": 1, "y": [3]}"#)))
    }

    @Test func objectMutationKeepsIndexConsistent() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = nil
        object["d"] = 4
        object["a"] = "A"
        #expect(object.keys == ["a", "c", "d"])
        #expect(object["c"] == 3)
        #expect(object["d"] == 4)
        #expect(object["a"] == "A")
        #expect(object["b"] == nil)
    }

    @Test(arguments: [5, 12, 13, 40])
    func largeAndSmallObjectsBehaveAlike(size: Int) throws {
        let members = (0..<size).map { "\"k\($0)\": \($0)" }
        let value = try JSONParser.parse("{" + members.joined(separator: ",") + "}")
        var object = try #require(value.objectValue)
        #expect(object.count == size)
        #expect(object["k\(size - 1)"] == .number(JSONNumber(Int64(size - 1))))
        object["k0"] = nil
        object["new"] = true
        #expect(object["k\(size - 1)"] == .number(JSONNumber(Int64(size - 1))))
        #expect(object.keys.last == "new" && object["new"] == true && object["k0"] == nil)
        let duplicate = "{" + (members + ["\"k\(size - 1)\": \"last\""]).joined(separator: ",") + "}"
        let merged = try #require(try JSONParser.parse(duplicate).objectValue)
        #expect(merged.keys == (0..<size).map { "k\($0)" } && merged["k\(size - 1)"] == "last")
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(duplicate, duplicateKeys: .reject) }
        #expect(error.message == "duplicate key \"k\(size - 1)\" in an object")
    }

    @Test func codableThroughFoundation() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", true, nil], "b": ["c": -3]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }

    // Speed is measured in Benchmarks/, never asserted in a test; this only checks a realistic body parses.
    @Test func parsesARealisticSessionBody() throws {
        let body = Array(Self.sessionBody.utf8)
        #expect(body.count > 1500)
        #expect(try JSONParser.parse(body)["configuration"]?["timeoutIntervalForRequest"] != nil)
    }

    static let sessionBody: String = {
        let headers = (0..<20).map { "\"X-Header-\($0)\": \"value number \($0) with some text\"" }.joined(separator: ",\n    ")
        return """
            {
              "kind": "default",
              "sessionDescription": "a session with a reasonably long description to pad the body",
              "configuration": {
                "timeoutIntervalForRequest": 30.5,
                "timeoutIntervalForResource": 604800,
                "httpMaximumConnectionsPerHost": 6,
                "httpShouldUsePipelining": false,
                "requestCachePolicy": "useProtocolCachePolicy",
                "urlCache": {"memoryCapacity": 512000, "diskCapacity": 10000000},
                "httpAdditionalHeaders": {
                \(headers)
                },
                "tlsMinimumSupportedProtocolVersion": "TLSv12",
                "networkServiceType": "default"
              },
              "delegate": {
                "url": "https://example.com/hooks/urlsession?tenant=abc",
                "events": ["task.didCompleteWithError", "task.didSendBodyData", "dataTask.didReceiveData"],
                "decisionTimeout": 10,
                "progressInterval": 0.5
              }
            }
            """
    }()
}
