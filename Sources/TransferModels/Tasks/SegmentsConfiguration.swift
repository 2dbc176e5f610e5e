public import JSONCodec

/// `segments` (beyond URLSession): a download task fetched over up to `max` connections when its origin
/// supports ranges and the representation has a strong validator, no part smaller than `minSize` bytes
/// (and nothing under two parts segmented). On a download task, or as a session's default for its
/// download tasks; a task's own value wins, and the task shows the one it runs with.
public struct SegmentsConfiguration: Codable, Sendable, Hashable {
    public var max: Int
    public var minSize: Int64

    public init(max: Int, minSize: Int64 = Self.defaultMinimumSize) {
        self.max = max
        self.minSize = minSize
    }

    /// Connections one download may use at most.
    public static let connectionLimit = 16
    /// A part is at least 64 KiB: smaller ones cost more in requests than they gain in parallelism.
    public static let smallestMinimumSize: Int64 = 64 << 10
    public static let largestMinimumSize: Int64 = 1 << 40
    public static let defaultMinimumSize: Int64 = 1 << 20
}

/// `segments` as a client sends it: `max` required, `minSize` defaulting to 1 MiB.
public struct SegmentsInput: Decodable, Sendable, Hashable {
    public var max: Int?
    public var minSize: Int64?

    public init(max: Int? = nil, minSize: Int64? = nil) {
        self.max = max
        self.minSize = minSize
    }

    /// The configuration, or the first invalid field (`<path>.max`, `<path>.minSize`).
    public func validated(at path: String) throws(RequestDecodingError) -> SegmentsConfiguration {
        guard let max else { throw .missingField("\(path).max", "is required: the most connections, 1 to 16") }
        try Validate.range(max, 1...SegmentsConfiguration.connectionLimit, field: "\(path).max")
        let minSize = self.minSize ?? SegmentsConfiguration.defaultMinimumSize
        try Validate.range(
            minSize, SegmentsConfiguration.smallestMinimumSize...SegmentsConfiguration.largestMinimumSize, field: "\(path).minSize")
        return SegmentsConfiguration(max: max, minSize: minSize)
    }
}
