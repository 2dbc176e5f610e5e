extension RequestDecodingError {
    /// A value error for a field named by its dotted path (validation after decoding).
    public static func invalidValue(_ field: String, _ detail: String) -> Self {
        Self(kind: .invalidValue, field: field, detail: detail)
    }

    /// A required field that is absent, named by its dotted path.
    public static func missingField(_ field: String, _ detail: String = "is required") -> Self {
        Self(kind: .missingField, field: field, detail: detail)
    }
}
