import Foundation
import JSONCodec
import Testing

/// The parsing corpus of nst/JSONTestSuite (vendored in `JSONTestSuite/`, see its README): each file is
/// its own case, so a regression names the document that broke.
@Suite("JSONTestSuite")
struct JSONTestSuiteTests {
    // MARK: The corpus

    /// The vendored commit's file counts. Checked exactly so that a missing resource, a bad copy or
    /// a filter that matches nothing can never pass by finding no case to run.
    static let expectedCounts = ["y_": 95, "n_": 188, "i_": 35]

    struct CorpusError: Error, CustomStringConvertible {
        var description: String
    }

    static func directory() throws -> URL {
        guard let url = Bundle.module.url(forResource: "JSONTestSuite", withExtension: nil) else {
            throw CorpusError(description: "the JSONTestSuite resource directory is missing from the test bundle")
        }
        return url
    }

    /// The names of the corpus files starting with `prefix`, sorted; throws (failing the test that
    /// asked for them) when there is none.
    static func files(_ prefix: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory().path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
            .sorted()
        if names.isEmpty { throw CorpusError(description: "no \(prefix)*.json file in the JSONTestSuite corpus") }
        return names
    }

    static func bytes(of name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory().appendingPathComponent(name)))
    }

    @Test func corpusIsComplete() throws {
        for (prefix, count) in Self.expectedCounts {
            #expect(try Self.files(prefix).count == count, "\(prefix) files")
        }
    }

    // MARK: The parser

    /// Valid JSON must parse, and what it parses to must survive serializing and parsing again.
    @Test(arguments: try files("y_"))
    func acceptsValidDocument(_ name: String) throws {
        let value = try JSONParser.parse(try Self.bytes(of: name))
        #expect(try JSONParser.parse(value.serialized()) == value)
    }

    @Test(arguments: try files("n_"))
    func rejectsInvalidDocument(_ name: String) throws {
        let bytes = try Self.bytes(of: name)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
    }

    /// Implementation-defined documents (lone surrogates, a byte order mark, UTF-16, deep nesting,
    /// huge numbers) may go either way, but must not crash; what is accepted must round-trip.
    @Test(arguments: try files("i_"))
    func decidesImplementationDefinedDocument(_ name: String) throws {
        guard let value = try? JSONParser.parse(try Self.bytes(of: name)) else { return }
        #expect(try JSONParser.parse(value.serialized()) == value)
    }

    // MARK: Request bodies

    /// A request body is stricter than RFC 8259 in one way only: a repeated key is ambiguous (which
    /// value did the client mean?), so the strict decoder rejects the suite's two duplicate-key files.
    @Test(arguments: [
        ("y_object_duplicated_key.json", #"{"a":"b","a":"c"}"#),
        ("y_object_duplicated_key_and_value.json", #"{"a":"b","a":"b"}"#),
    ])
    func strictDecoderRejectsDuplicateKeys(name: String, text: String) throws {
        let bytes = try Self.bytes(of: name)
        #expect(bytes == Array(text.utf8))
        let error = try #require(throws: RequestDecodingError.self) {
            try StrictJSONDecoder().decode(JSONValue.self, from: bytes)
        }
        let detail = #"malformed JSON at line 1, column 10: duplicate key "a" in an object"#
        #expect(error == RequestDecodingError(kind: .malformedJSON, field: nil, detail: detail))
    }

    /// Apart from duplicate keys, the strict decoder takes every valid document the parser takes.
    @Test(arguments: try files("y_").filter { !$0.hasPrefix("y_object_duplicated_key") })
    func strictDecoderAcceptsValidDocument(_ name: String) throws {
        let bytes = try Self.bytes(of: name)
        #expect(try StrictJSONDecoder().decode(JSONValue.self, from: bytes) == JSONParser.parse(bytes))
    }
}
