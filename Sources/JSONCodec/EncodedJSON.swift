/// JSON that is already encoded, written as it is where an `Encodable` value would go (by `WireJSON`;
/// other encoders get an error). For bytes encoded once and used twice, as a task's metrics are.
public struct EncodedJSON: Encodable, Sendable, Hashable {
    public let text: String

    public init(_ text: String) { self.text = text }

    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            self, .init(codingPath: encoder.codingPath, debugDescription: "EncodedJSON is written by WireJSON only"))
    }
}
