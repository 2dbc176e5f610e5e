import Foundation
import JSONCodec
import Testing
import TransferModels

private enum Kind: String, Decodable, CaseIterable, Sendable {
    case `default`, ephemeral, background
}

private enum Policy: String, Decodable, Sendable {  // not CaseIterable: no list in the detail
    case always, never
}

private struct Cache: Decodable, Equatable {
    var memoryCapacity: Int
    var diskCapacity: Int64
}

private struct Configuration: Decodable, Equatable {
    var timeoutIntervalForRequest: Double
    var httpMaximumConnectionsPerHost: Int?
    var httpShouldUsePipelining: Bool?
    var urlCache: Cache?
    var httpAdditionalHeaders: [String: String]?
}

private struct Delegate: Decodable, Equatable {
    var url: URL
    var events: [String]?
}

private struct Session: Decodable, Equatable {
    var kind: Kind
    var sessionDescription: String?
    var configuration: Configuration?
    var delegate: Delegate?
    var createdAt: Date?
    var secret: Data?
    var policy: Policy?
    var userInfo: JSONValue?
}

private struct Leaf: Decodable { var c: Int? }
private struct Branch: Decodable { var b: [Leaf] }
private struct Root: Decodable { var a: Branch }

private struct Numbers: Decodable {
    var int: Int?
    var int8: Int8?
    var uint8: UInt8?
    var uint64: UInt64?
    var int64: Int64?
    var double: Double?
    var float: Float?
    var decimal: Decimal?
}

/// Validates in `init(from:)`, the way wire types check ranges.
private struct Interval: Decodable {
    var seconds: Double
    var retries: Int

    enum CodingKeys: String, CodingKey { case seconds, retries }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seconds = try container.decode(Double.self, forKey: .seconds)
        retries = try container.decode(Int.self, forKey: .retries)
        guard seconds > 0 else { throw container.invalidValue(forKey: .seconds, "must be > 0") }
        guard retries < 10 else {
            throw DecodingError.dataCorruptedError(forKey: .retries, in: container, debugDescription: "must be < 10")
        }
    }
}

private struct Positive: Decodable {
    var value: Int
    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Int.self)
        guard value > 0 else { throw RequestDecodingError.invalidValue(at: decoder.codingPath, "must be > 0") }
    }
}

private struct Pair: Decodable {  // reads exactly two elements from an array
    var first: Int
    var second: Int
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        first = try container.decode(Int.self)
        second = try container.decode(Int.self)
    }
}

private struct Wrapper<T: Decodable>: Decodable { var value: T }

private struct CustomFailure: Error, CustomStringConvertible { var description: String { "custom failure" } }

private struct Throwing: Decodable {
    init(from decoder: any Decoder) throws { throw CustomFailure() }
}

private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws(RequestDecodingError) -> T {
    try StrictJSONDecoder().decode(type, from: Array(json.utf8))
}

private func decodingError<T: Decodable>(_ type: T.Type, _ json: String) -> RequestDecodingError? {
    do {
        _ = try decode(type, json)
        return nil
    } catch {
        return error
    }
}

@Suite("StrictJSONDecoder")
struct StrictJSONDecoderTests {
    @Test func decodesNestedStructs() throws {
        let session = try decode(
            Session.self,
            """
            {"kind": "ephemeral", "sessionDescription": null,
             "configuration": {"timeoutIntervalForRequest": 30, "httpShouldUsePipelining": true,
                               "urlCache": {"memoryCapacity": 1e3, "diskCapacity": 0},
                               "httpAdditionalHeaders": {"X-Api.Key": "k", "accept": "*/*"}},
             "delegate": {"url": "https://example.com/hook", "events": ["*"]},
             "createdAt": "2024-02-29T23:59:59.5+01:00", "secret": "AAEC", "policy": "never",
             "userInfo": {"z": [1.0, 12345678901234567890123], "a": null}}
            """)
        #expect(session.kind == .ephemeral)
        #expect(session.sessionDescription == nil)
        let configuration = try #require(session.configuration)
        #expect(configuration.timeoutIntervalForRequest == 30)
        #expect(configuration.httpMaximumConnectionsPerHost == nil)
        #expect(configuration.httpShouldUsePipelining == true)
        #expect(configuration.urlCache == Cache(memoryCapacity: 1000, diskCapacity: 0))
        #expect(configuration.httpAdditionalHeaders == ["X-Api.Key": "k", "accept": "*/*"])
        #expect(session.delegate == Delegate(url: URL(string: "https://example.com/hook")!, events: ["*"]))
        #expect(session.createdAt == Date(timeIntervalSince1970: 1_709_247_599.5))
        #expect(session.secret == Data([0, 1, 2]))
        #expect(session.policy == .never)
        // JSONValue is the subtree as parsed: literal number text and member order kept.
        #expect(session.userInfo?.description == #"{"z":[1.0,12345678901234567890123],"a":null}"#)
        #expect(session.userInfo?.objectValue?.keys == ["z", "a"])
    }

    @Test func decodesJSONValueAtTheRoot() throws {
        let value = try decode(JSONValue.self, #"[1, {"b": 2, "a": 1}]"#)
        #expect(value == [1, ["a": 1, "b": 2]])
        #expect(try StrictJSONDecoder().decode([String: JSONValue].self, from: value[1] ?? nil) == ["a": 1, "b": 2])
    }

    @Test func optionalsAreNilWhenAbsentOrNull() throws {
        let absent = try decode(Session.self, #"{"kind": "default"}"#)
        let null = try decode(
            Session.self,
            #"{"kind": "default", "configuration": null, "delegate": null, "userInfo": null, "createdAt": null}"#)
        #expect(absent == null)
        #expect(absent.configuration == nil && absent.userInfo == nil)
        #expect(try decode(Int?.self, "null") == nil)
        #expect(try decode([Int?].self, "[1, null]") == [1, nil])
    }

    @Test(arguments: [
        (#"{"kind": "default", "extra": 1}"#, "extra"),
        (#"{"kind": "default", "configuration": {"timeoutIntervalForRequest": 1, "timeout": 2}}"#, "configuration.timeout"),
        (
            #"{"kind": "default", "configuration": {"timeoutIntervalForRequest": 1, "urlCache": {"memoryCapacity": 1, "diskCapacity": 1, "x": 0}}}"#,
            "configuration.urlCache.x"
        ),
        (#"{"kind": "default", "delegate": {"url": "https://a", "Events": []}}"#, "delegate.Events"),
    ])
    func rejectsUnknownFields(json: String, field: String) throws {
        let error = try #require(decodingError(Session.self, json))
        #expect(error == RequestDecodingError(kind: .unknownField, field: field, detail: "unknown field"))
    }

    @Test func reportsUnknownFieldsInsideArrays() throws {
        let error = try #require(decodingError(Root.self, #"{"a": {"b": [{"c": 1}, {"c": 2, "d": 3}]}}"#))
        #expect(error.kind == .unknownField)
        #expect(error.field == "a.b[1].d")
    }

    @Test(arguments: [
        (#"{"int": "1"}"#, "int", "expected an integer, found a string"),
        (#"{"int": 1.5}"#, "int", "expected an integer, found 1.5"),
        (#"{"int": 1e-3}"#, "int", "expected an integer, found 1e-3"),
        (#"{"int": true}"#, "int", "expected an integer, found a boolean"),
        (#"{"double": "1.5"}"#, "double", "expected a number, found a string"),
        (#"{"double": false}"#, "double", "expected a number, found a boolean"),
        (#"{"float": [1]}"#, "float", "expected a number, found an array"),
        (#"{"decimal": {}}"#, "decimal", "expected a number, found an object"),
    ])
    func rejectsNumbersOfTheWrongType(json: String, field: String, detail: String) throws {
        let error = try #require(decodingError(Numbers.self, json))
        #expect(error == RequestDecodingError(kind: .typeMismatch, field: field, detail: detail))
    }

    @Test(arguments: [
        (#"{"kind": 1}"#, "kind", "expected a string, found a number"),
        (
            #"{"kind": "default", "configuration": {"timeoutIntervalForRequest": 1, "httpShouldUsePipelining": 1}}"#,
            "configuration.httpShouldUsePipelining", "expected a boolean, found a number"
        ),
        (
            #"{"kind": "default", "configuration": {"timeoutIntervalForRequest": true}}"#,
            "configuration.timeoutIntervalForRequest", "expected a number, found a boolean"
        ),
        (
            #"{"kind": "default", "delegate": {"url": "https://a", "events": {"a": 1}}}"#,
            "delegate.events", "expected an array, found an object"
        ),
        (
            #"{"kind": "default", "delegate": {"url": "https://a", "events": ["a", 2]}}"#,
            "delegate.events[1]", "expected a string, found a number"
        ),
        (#"{"kind": "default", "configuration": []}"#, "configuration", "expected an object, found an array"),
        (
            #"{"kind": "default", "configuration": {"timeoutIntervalForRequest": 1, "httpAdditionalHeaders": {"X-Api-Key": 5}}}"#,
            "configuration.httpAdditionalHeaders.X-Api-Key", "expected a string, found a number"
        ),
        (#"{"kind": "default", "createdAt": 1700000000}"#, "createdAt", "expected a string, found a number"),
    ])
    func rejectsValuesOfTheWrongType(json: String, field: String, detail: String) throws {
        let error = try #require(decodingError(Session.self, json))
        #expect(error == RequestDecodingError(kind: .typeMismatch, field: field, detail: detail))
    }

    @Test(arguments: [
        (#"{}"#, "kind", "is required"),
        (#"{"kind": null}"#, "kind", "must not be null"),
        (#"{"kind": "default", "configuration": {}}"#, "configuration.timeoutIntervalForRequest", "is required"),
        (
            #"{"kind": "default", "configuration": {"timeoutIntervalForRequest": null}}"#,
            "configuration.timeoutIntervalForRequest", "must not be null"
        ),
        (#"{"kind": "default", "delegate": {"url": "https://a", "events": [null]}}"#, "delegate.events[0]", "must not be null"),
        (
            #"{"kind": "default", "configuration": {"timeoutIntervalForRequest": 1, "urlCache": {"memoryCapacity": 1}}}"#,
            "configuration.urlCache.diskCapacity", "is required"
        ),
    ])
    func rejectsMissingRequiredValues(json: String, field: String, detail: String) throws {
        let error = try #require(decodingError(Session.self, json))
        #expect(error == RequestDecodingError(kind: .missingField, field: field, detail: detail))
    }

    @Test func acceptsExactIntegersInRange() throws {
        let numbers = try decode(
            Numbers.self,
            #"{"int": 1.0, "int8": -128, "uint8": 2.55e2, "uint64": 18446744073709551615, "int64": -9223372036854775808, "double": 1, "float": 0.5, "decimal": 12.345}"#
        )
        #expect(numbers.int == 1)
        #expect(numbers.int8 == -128)
        #expect(numbers.uint8 == 255)
        #expect(numbers.uint64 == .max)
        #expect(numbers.int64 == .min)
        #expect(numbers.double == 1)
        #expect(numbers.float == 0.5)
        #expect(numbers.decimal == Decimal(string: "12.345", locale: Locale(identifier: "en_US_POSIX")))
    }

    @Test(arguments: [
        (#"{"int8": 128}"#, "int8", "out of range: must be between -128 and 127"),
        (#"{"uint8": -1}"#, "uint8", "out of range: must be between 0 and 255"),
        (#"{"uint64": 18446744073709551616}"#, "uint64", "out of range: must be between 0 and 18446744073709551615"),
        (#"{"int": 1e30}"#, "int", "out of range: must be between -9223372036854775808 and 9223372036854775807"),
        (#"{"int64": -9223372036854775809}"#, "int64", "out of range: must be between -9223372036854775808 and 9223372036854775807"),
        (#"{"double": 1e400}"#, "double", "out of range for Double"),
        (#"{"float": 1e39}"#, "float", "out of range for Float"),
    ])
    func rejectsNumbersOutOfRange(json: String, field: String, detail: String) throws {
        let error = try #require(decodingError(Numbers.self, json))
        #expect(error == RequestDecodingError(kind: .invalidValue, field: field, detail: detail))
    }

    @Test(arguments: [
        (#"{"kind": "shared"}"#, "kind", #"unknown value "shared"; expected one of: default, ephemeral, background"#),
        (#"{"kind": "default", "policy": "sometimes"}"#, "policy", #"unknown value "sometimes""#),
        (#"{"kind": "default", "createdAt": "2024-02-30T00:00:00Z"}"#, "createdAt", "not an RFC 3339 date-time"),
        (#"{"kind": "default", "secret": "not base64!"}"#, "secret", "not valid base64"),
        (#"{"kind": "default", "delegate": {"url": ""}}"#, "delegate.url", "not a valid URL"),
    ])
    func rejectsInvalidValues(json: String, field: String, detail: String) throws {
        let error = try #require(decodingError(Session.self, json))
        #expect(error == RequestDecodingError(kind: .invalidValue, field: field, detail: detail))
    }

    @Test(arguments: [
        ("2024-05-01T12:00:00Z", 1_714_564_800.0),
        ("2024-05-01t12:00:00z", 1_714_564_800),
        ("2024-05-01T12:00:00.250Z", 1_714_564_800.25),
        ("2024-05-01T14:30:00+02:30", 1_714_564_800),
        ("2024-05-01T07:00:00.000000001-05:00", 1_714_564_800.000000001),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1),
        ("2000-02-29T00:00:00Z", 951_782_400),
    ])
    func parsesRFC3339Dates(text: String, seconds: Double) throws {
        let date = try decode(Date.self, "\"\(text)\"")
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test(arguments: [
        "2024-05-01", "2024-05-01T12:00:00", "2024-05-01 12:00:00Z", "2024-13-01T00:00:00Z",
        "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z",
        "2024-05-01T12:00:60Z", "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00+0200", "2024-05-01T12:00:00+24:00",
        "2024-05-01T12:00:00Zjunk", "+2024-05-01T12:00:00Z", "2024-5-01T12:00:00Z",
    ])
    func rejectsMalformedDates(text: String) throws {
        let error = try #require(decodingError(Wrapper<Date>.self, #"{"value": "\#(text)"}"#))
        #expect(error == RequestDecodingError(kind: .invalidValue, field: "value", detail: "not an RFC 3339 date-time"))
    }

    @Test func dictionariesAcceptAnyKey() throws {
        let headers = try decode([String: String].self, #"{"X-Api.Key": "a", "404": "b", "": "c"}"#)
        #expect(headers == ["X-Api.Key": "a", "404": "b", "": "c"])
        let error = try #require(decodingError(Wrapper<[String: Int]>.self, #"{"value": {"404": "x"}}"#))
        #expect(error.field == "value.404")  // an integer-looking key is still a key, not an index
    }

    @Test func customValidationErrorsCarryTheirPath() throws {
        let list = try #require(
            decodingError(Wrapper<[Interval]>.self, #"{"value": [{"seconds": 1, "retries": 0}, {"seconds": 0, "retries": 0}]}"#))
        #expect(list == RequestDecodingError(kind: .invalidValue, field: "value[1].seconds", detail: "must be > 0"))

        // A DecodingError thrown by the type is converted, keeping its path.
        let converted = try #require(decodingError(Wrapper<Interval>.self, #"{"value": {"seconds": 1, "retries": 10}}"#))
        #expect(converted == RequestDecodingError(kind: .invalidValue, field: "value.retries", detail: "must be < 10"))

        let single = try #require(decodingError([String: Positive].self, #"{"a": 1, "b": -1}"#))
        #expect(single == RequestDecodingError(kind: .invalidValue, field: "b", detail: "must be > 0"))

        let foreign = try #require(decodingError(Wrapper<Throwing>.self, #"{"value": {}}"#))
        #expect(foreign == RequestDecodingError(kind: .invalidValue, field: nil, detail: "custom failure"))
    }

    @Test func unkeyedContainersReportShortArrays() throws {
        #expect(try decode(Pair.self, "[1, 2]").second == 2)
        let error = try #require(decodingError(Wrapper<Pair>.self, #"{"value": [1]}"#))
        #expect(error == RequestDecodingError(kind: .missingField, field: "value[1]", detail: "is required (the array has 1 elements)"))
    }

    @Test(arguments: [
        ("", "the body is empty"),
        ("{\"kind\": }", "malformed JSON at line 1, column 10: expected a value, found character '}'"),
        ("{\n\"kind\" \"default\"}", "malformed JSON at line 2, column 8: expected ':' after an object key, found character '\"'"),
        ("[]", "the body must be an object, found an array"),
        ("null", "the body must be an object, found null"),
        ("\"default\"", "the body must be an object, found a string"),
    ])
    func reportsMalformedBodies(json: String, detail: String) throws {
        let error = try #require(decodingError(Session.self, json))
        #expect(error == RequestDecodingError(kind: .malformedJSON, field: nil, detail: detail))
    }

    @Test func decodesFromDataAndParsedValues() throws {
        let data = Data(#"{"seconds": 2, "retries": 1}"#.utf8)
        #expect(try StrictJSONDecoder().decode(Interval.self, from: data).retries == 1)
        let value: JSONValue = ["seconds": 2.5, "retries": 3]
        #expect(try StrictJSONDecoder().decode(Interval.self, from: value).seconds == 2.5)
    }

    @Test func decodesASessionBodyQuickly() throws {
        let body = Array(
            """
            {"kind": "default",
             "configuration": {"timeoutIntervalForRequest": 30, "urlCache": {"memoryCapacity": 1, "diskCapacity": 2},
                               "httpAdditionalHeaders": {"a": "b", "c": "d"}},
             "delegate": {"url": "https://example.com", "events": ["a", "b", "c"]}}
            """.utf8)
        let decoder = StrictJSONDecoder()
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0..<1000 { _ = try decoder.decode(Session.self, from: body) }
        }
        #expect(elapsed / 1000 < .milliseconds(1))  // generous: debug builds on slow machines
    }
}
