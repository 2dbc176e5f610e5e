/// Header fields as they arrived: order kept, names compared case-insensitively, several fields of one name allowed.
///
/// A list rather than a dictionary because caching rules care about repeated fields (`Cache-Control`, `Vary`) and
/// about where a field sits when a 304 updates it.
public typealias HTTPFields = [(name: String, value: String)]

/// Reading fields the way RFC 9110 §5 says a recipient combines them.
enum FieldValues {
    /// Every value of the fields named `name`, in arrival order, untrimmed.
    static func all(_ name: String, in fields: HTTPFields) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The first field named `name`, trimmed; nil when there is none.
    static func first(_ name: String, in fields: HTTPFields) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }.map { trimmed($0.value) }
    }

    static func contains(_ name: String, in fields: HTTPFields) -> Bool {
        fields.contains { $0.name.lowercased() == name.lowercased() }
    }

    /// The elements of a comma-separated list spread over every field named `name` (§5.6.1), trimmed, empties dropped.
    static func listElements(_ name: String, in fields: HTTPFields) -> [String] {
        all(name, in: fields).flatMap { $0.split(separator: ",") }.map(trimmed).filter { !$0.isEmpty }
    }

    /// The names a `Connection` field lists (lowercased), plus `connection` itself: all of them hop-by-hop (§7.6.1).
    static func connectionNames(in fields: HTTPFields) -> Set<String> {
        Set(listElements("Connection", in: fields).map { $0.lowercased() }).union(["connection"])
    }

    /// `text` without leading or trailing spaces and tabs (RFC 9110's OWS).
    static func trimmed(_ text: some StringProtocol) -> String {
        var text = Substring(text)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
