/// A request field that distinguishes "absent" (use the default) from an explicit `null`.
///
/// `urlCache: null` means "no cache", while leaving `urlCache` out means "the default cache".
public enum Nullable<Wrapped> {
    case absent
    case null
    case value(Wrapped)
}

extension Nullable: Sendable where Wrapped: Sendable {}
extension Nullable: Equatable where Wrapped: Equatable {}

extension Nullable: Decodable where Wrapped: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .null : .value(try container.decode(Wrapped.self))
    }
}

extension KeyedDecodingContainer {
    /// Synthesized `init(from:)` calls this overload, so an absent key becomes `.absent` instead of an error.
    public func decode<Wrapped: Decodable>(_ type: Nullable<Wrapped>.Type, forKey key: Key) throws -> Nullable<Wrapped> {
        guard contains(key) else { return .absent }
        return try decodeIfPresent(Nullable<Wrapped>.self, forKey: key) ?? .null
    }
}
