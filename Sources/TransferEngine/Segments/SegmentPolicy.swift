/// A download fetched over several connections (the task's `segments`): when the origin supports ranges
/// and the representation has a strong validator, up to `maximumConnections` connections fetch parts of
/// it into one file, none smaller than `minimumPartSize`.
public struct SegmentPolicy: Sendable, Hashable, Codable {
    public var maximumConnections: Int
    public var minimumPartSize: Int64

    public init(maximumConnections: Int, minimumPartSize: Int64) {
        self.maximumConnections = maximumConnections
        self.minimumPartSize = minimumPartSize
    }

    /// How long one range request should last at the connection's rate: 20 round trips, so the round
    /// trip a connection waits between two requests costs at most 5%, and at least a second, so the work
    /// nobody has asked for yet (what an idle connection can take) is handed out often and the last
    /// requests end close together.
    static let requestRoundTrips = 20.0
    static let shortestRequestDuration = 1.0
    /// The largest range request.
    static let largestRequest: Int64 = 64 << 20

    /// The size of the next range request of a connection whose last one moved `rate` bytes per second
    /// after a first byte `roundTrip` seconds away (nil: none yet, and it starts at four minimum parts),
    /// never less than a minimum part.
    func requestSize(rate: Double?, roundTrip: Double? = nil) -> Int64 {
        guard let rate, rate.isFinite, rate > 0 else { return min(Self.largestRequest, max(1, minimumPartSize) * 4) }
        let duration = max(Self.shortestRequestDuration, Self.requestRoundTrips * (roundTrip ?? 0))
        return min(Self.largestRequest, max(minimumPartSize, Int64(rate * duration)))
    }
}

/// Where a segmented download stopped, as its journal says: the representation (its length and the
/// validator its bytes were fetched under), the policy it ran with, and each part as `(start, next, end)`
/// — the bytes `start..<next` are in the file. A resumed job asks for the rest of each part by `Range`
/// with `If-Range`.
public struct SegmentedResume: Sendable, Hashable, Codable {
    public var length: Int64
    public var validator: String
    public var policy: SegmentPolicy
    /// `[start, next, end]` per part, partitioning `0..<length` in order.
    public var parts: [[Int64]]

    public init(length: Int64, validator: String, policy: SegmentPolicy, parts: [[Int64]]) {
        self.length = length
        self.validator = validator
        self.policy = policy
        self.parts = parts
    }

    /// The bytes the file holds.
    public var receivedBytes: Int64 { parts.reduce(0) { $0 + ($1.count == 3 ? $1[1] - $1[0] : 0) } }

    /// The plan these parts describe; nil when they do not partition the representation.
    func plan() -> SegmentPlan? {
        guard parts.allSatisfy({ $0.count == 3 }) else { return nil }
        return SegmentPlan(
            length: length, minimumPartSize: policy.minimumPartSize, ranges: parts.map { ($0[0], $0[1], $0[2]) })
    }
}
