/// Why a request body could not be turned into a model, in terms a client can act on.
///
/// Each ``kind`` maps to one problem type of the wire contract (`malformed-json`, `unknown-field`,
/// `type-mismatch`, `missing-field`, `invalid-value`); ``field`` names the culprit as a dotted
/// path from the body root, and ``detail`` is a sentence about it.
public struct RequestDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of failure. A struct rather than an enum so that adding kinds is not source-breaking.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let code: String
        private init(_ code: String) { self.code = code }

        /// The body is not JSON, or not the JSON shape the endpoint takes at its root.
        public static let malformedJSON = Kind("malformed-json")
        /// A member the schema does not have.
        public static let unknownField = Kind("unknown-field")
        /// A value of the wrong JSON type (a string for a number, 1.5 for an integer, ...).
        public static let typeMismatch = Kind("type-mismatch")
        /// A required value that is absent, or null where null is not allowed.
        public static let missingField = Kind("missing-field")
        /// The right type but an unacceptable value: out of range, unknown case, inconsistent.
        public static let invalidValue = Kind("invalid-value")

        /// The wire slug, e.g. `unknown-field`.
        public var description: String { code }
    }

    public var kind: Kind
    /// Dotted path from the body root (`delegate.events[2]`), nil when the root itself is at fault.
    public var field: String?
    /// A human sentence, e.g. "unknown field" or "expected a number, found a string".
    public var detail: String

    public init(kind: Kind, field: String?, detail: String) {
        self.kind = kind
        self.field = field
        self.detail = detail
    }

    public init(kind: Kind, at codingPath: [any CodingKey], detail: String) {
        self.init(kind: kind, field: Self.fieldPath(codingPath), detail: detail)
    }

    /// The kind's slug alone, free of request data, so it is safe as a metric label.
    public var shortDescription: String { kind.description }

    public var description: String {
        if let field { return "\(kind) at \(field): \(detail)" }
        return "\(kind): \(detail)"
    }

    /// Renders a coding path as a field path: keys joined with `.`, array indexes as `[n]`;
    /// nil for the root. Keys are not escaped, so a header name stays readable
    /// (`allHTTPHeaderFields.X-Api-Key`) even when it contains a dot.
    public static func fieldPath(_ codingPath: [any CodingKey]) -> String? {
        guard !codingPath.isEmpty else { return nil }
        var path = ""
        for key in codingPath {
            if let index = arrayIndex(of: key) {
                path += "[\(index)]"
            } else {
                if !path.isEmpty { path += "." }
                path += key.stringValue
            }
        }
        return path
    }

    /// Recognizes our own index keys and Foundation's (`"Index 3"`), but not dictionary keys that
    /// merely look like integers (`{"404": ...}` has an `intValue` too).
    private static func arrayIndex(of key: any CodingKey) -> Int? {
        if let key = key as? ArrayIndexKey { return key.index }
        if let index = key.intValue, key.stringValue == "Index \(index)" { return index }
        return nil
    }
}

extension RequestDecodingError {
    /// The body failed to parse.
    public static func malformedJSON(_ error: JSONSyntaxError) -> Self {
        let detail = error.isEmptyInput ? error.message : "malformed JSON at \(error)"
        return Self(kind: .malformedJSON, field: nil, detail: detail)
    }

    /// A member the schema does not have, at `codingPath` (which ends with the member's name).
    public static func unknownField(at codingPath: [any CodingKey]) -> Self {
        Self(kind: .unknownField, at: codingPath, detail: "unknown field")
    }

    /// A value of the wrong type: `expected` and `found` are phrases like "a number", "a string".
    public static func typeMismatch(at codingPath: [any CodingKey], expected: String, found: String) -> Self {
        Self(kind: .typeMismatch, at: codingPath, detail: "expected \(expected), found \(found)")
    }

    /// A required value is absent (or null); `detail` defaults to "is required".
    public static func missingField(at codingPath: [any CodingKey], _ detail: String = "is required") -> Self {
        Self(kind: .missingField, at: codingPath, detail: detail)
    }

    /// A value that has the right type but is not acceptable, for validation in `init(from:)`:
    /// `throw RequestDecodingError.invalidValue(at: decoder.codingPath, "must be > 0")`.
    public static func invalidValue(at codingPath: [any CodingKey], _ detail: String) -> Self {
        Self(kind: .invalidValue, at: codingPath, detail: detail)
    }

    /// Maps a `DecodingError` (thrown by a type's own `init(from:)` or by the standard library)
    /// onto the wire kinds, keeping its coding path.
    public init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self = .missingField(at: context.codingPath + [key])
        case .valueNotFound(_, let context):
            self = .missingField(at: context.codingPath)
        case .typeMismatch(_, let context):
            self.init(kind: .typeMismatch, at: context.codingPath, detail: context.debugDescription)
        case .dataCorrupted(let context):
            self = .invalidValue(at: context.codingPath, context.debugDescription)
        @unknown default:
            self.init(kind: .invalidValue, field: nil, detail: String(describing: error))
        }
    }
}

extension KeyedDecodingContainer {
    /// An ``RequestDecodingError/Kind/invalidValue`` error naming `key`, for validation in
    /// `init(from:)`: `throw container.invalidValue(forKey: .timeout, "must be > 0")`.
    public func invalidValue(forKey key: Key, _ detail: String) -> RequestDecodingError {
        .invalidValue(at: codingPath + [key], detail)
    }
}

/// The coding key of an array element; rendered as `[n]` in field paths.
struct ArrayIndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(intValue: Int) { index = intValue }
    init?(stringValue: String) { nil }
    var intValue: Int? { index }
    var stringValue: String { "Index \(index)" }
}
