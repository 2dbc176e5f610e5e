/// Secondary keys (RFC 9111 §4.1): a response that varies on request fields answers only requests that agree on them.
extension HTTPCacheRules {
    /// The names of the request fields `Vary` selects (lowercased, deduplicated, in order); nil for `Vary: *`; [] without Vary.
    public static func varyNames(of responseFields: HTTPFields) -> [String]? {
        var names: [String] = []
        for name in FieldValues.listElements("Vary", in: responseFields).map({ $0.lowercased() }) {
            if name == "*" { return nil }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The `varyValues` to keep with a response stored for a request with `requestFields`.
    public static func varyValues(names: [String], requestFields: HTTPFields) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            let fieldValues = FieldValues.all(name, in: requestFields)
            if !fieldValues.isEmpty {
                values[name.lowercased()] = fieldValues.map { FieldValues.trimmed($0) }.joined(separator: ", ")
            }
        }
        return values
    }

    /// §4.1: whether a new request with `requestFields` selects the stored response (every Vary-named field equal after
    /// joining and trimming; absent in both also matches; `Vary: *` never matches).
    public static func varyMatches(_ stored: StoredResponse, requestFields: HTTPFields) -> Bool {
        guard let names = varyNames(of: stored.fields) else { return false }
        let current = varyValues(names: names, requestFields: requestFields)
        return names.allSatisfy { current[$0] == stored.varyValues[$0] }
    }
}
