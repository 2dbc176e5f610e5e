import JSONCodec
import Testing

/// How a request body's decoding failure is named: the dotted field path, the problem's slug, and the
/// conversion of Foundation's `DecodingError`.
@Suite("RequestDecodingError")
struct RequestDecodingErrorTests {
    @Test func rendersFieldPaths() {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { (self.stringValue, intValue) = (stringValue, Int(stringValue)) }
            init(intValue: Int) { (stringValue, self.intValue) = ("Index \(intValue)", intValue) }
        }
        #expect(RequestDecodingError.fieldPath([]) == nil)
        #expect(RequestDecodingError.fieldPath([Key(stringValue: "a")]) == "a")
        #expect(
            RequestDecodingError.fieldPath([Key(stringValue: "delegate"), Key(stringValue: "events"), Key(intValue: 2)])
                == "delegate.events[2]")
        #expect(RequestDecodingError.fieldPath([Key(intValue: 0), Key(stringValue: "x.y"), Key(stringValue: "7")]) == "[0].x.y.7")
    }

    @Test func describesErrorsForLogsAndMetrics() {
        let error = RequestDecodingError(kind: .typeMismatch, field: "a.b", detail: "expected a number, found a string")
        #expect(error.shortDescription == "type-mismatch")
        #expect(error.description == "type-mismatch at a.b: expected a number, found a string")
        #expect(RequestDecodingError.Kind.malformedJSON.description == "malformed-json")
        #expect(RequestDecodingError(kind: .missingField, field: nil, detail: "x").description == "missing-field: x")
    }

    @Test func convertsStandardDecodingErrors() {
        struct K: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let context = DecodingError.Context(codingPath: [K(stringValue: "a")], debugDescription: "bad")
        #expect(
            RequestDecodingError(DecodingError.keyNotFound(K(stringValue: "b"), context))
                == RequestDecodingError(kind: .missingField, field: "a.b", detail: "is required"))
        #expect(RequestDecodingError(DecodingError.valueNotFound(Int.self, context)).kind == .missingField)
        #expect(
            RequestDecodingError(DecodingError.typeMismatch(Int.self, context))
                == RequestDecodingError(kind: .typeMismatch, field: "a", detail: "bad"))
        #expect(RequestDecodingError(DecodingError.dataCorrupted(context)).kind == .invalidValue)
    }
}
