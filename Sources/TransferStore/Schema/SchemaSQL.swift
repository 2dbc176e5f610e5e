/// One statement of the schema written once for both backends: SQL both read the same way, with the
/// column types they spell differently interpolated as `SchemaType`s (`"createdAt \(.date) NOT NULL"`),
/// spelled out for a backend by `sql(for:)`. A misspelt type does not compile.
struct SchemaSQL: ExpressibleByStringInterpolation, Sendable {
    fileprivate enum Part: Sendable {
        case text(String)
        case type(SchemaType)
    }

    private let parts: [Part]

    init(stringLiteral value: String) {
        parts = [.text(value)]
    }

    init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// The statement as `dialect` spells it.
    func sql(for dialect: SchemaDialect) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .type(let type): type.spelled(in: dialect)
            }
        }.joined()
    }

    struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) {
            parts.append(.text(literal))
        }

        mutating func appendInterpolation(_ type: SchemaType) {
            parts.append(.type(type))
        }
    }
}
