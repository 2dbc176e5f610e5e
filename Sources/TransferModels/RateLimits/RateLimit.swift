public import Foundation

/// `rateLimit` (beyond URLSession): a bandwidth limit in bytes per second, receiving and sending, either
/// flat (`receiveBytesPerSecond`, `sendBytesPerSecond`; either absent: that direction unlimited) or a
/// timetable (`schedule`, read in `timeZone`: outside its entries, unlimited). On a task, in a session's
/// configuration, and as the operator's per-tenant and service-wide limits; the lowest that applies wins.
public struct RateLimit: Codable, Sendable, Hashable {
    public var receiveBytesPerSecond: Int64?
    public var sendBytesPerSecond: Int64?
    /// A timetable instead of flat limits: each entry covers `from` (inclusive) to `to` (exclusive) of
    /// every day, wrapping past midnight when `to` comes first.
    public var schedule: [RateLimitPeriod]?
    /// The IANA zone the schedule's times are read in; nil: the service's own zone (`TZ`).
    public var timeZone: String?

    public init(
        receiveBytesPerSecond: Int64? = nil, sendBytesPerSecond: Int64? = nil, schedule: [RateLimitPeriod]? = nil,
        timeZone: String? = nil
    ) {
        self.receiveBytesPerSecond = receiveBytesPerSecond
        self.sendBytesPerSecond = sendBytesPerSecond
        self.schedule = schedule
        self.timeZone = timeZone
    }

    /// The limits that hold at `date`: the flat ones, or those of the schedule's entry covering that time
    /// of day in the timetable's zone (none: unlimited both ways).
    public func rates(at date: Date) -> RateLimitRates {
        guard let schedule else { return RateLimitRates(receive: receiveBytesPerSecond, send: sendBytesPerSecond) }
        let zone = timeZone.flatMap(TimeZone.init(identifier:)) ?? .current
        let second = Self.secondOfDay(date, in: zone)
        for period in schedule where period.covers(secondOfDay: second) {
            return RateLimitRates(receive: period.receiveBytesPerSecond, send: period.sendBytesPerSecond)
        }
        return .unlimited
    }

    /// Seconds since local midnight in `zone` (0..<86400, a DST day's clock time, as a timetable means it).
    static func secondOfDay(_ date: Date, in zone: TimeZone) -> Int {
        let local = Int64((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
        return Int(((local % 86_400) + 86_400) % 86_400)
    }

    /// The limit values in force now as a flat `rateLimit` (what a task shows), nil when both are unlimited.
    public init?(_ rates: RateLimitRates) {
        guard rates.receive != nil || rates.send != nil else { return nil }
        self.init(receiveBytesPerSecond: rates.receive, sendBytesPerSecond: rates.send)
    }
}

/// One entry of a `rateLimit` timetable: from `from` to `to` (`"HH:MM"`, or `"HH:MM:SS"`; `to` may be
/// `"24:00"`), these limits (either absent: that direction unlimited in the period).
public struct RateLimitPeriod: Codable, Sendable, Hashable {
    public var from: String
    public var to: String
    public var receiveBytesPerSecond: Int64?
    public var sendBytesPerSecond: Int64?

    public init(from: String, to: String, receiveBytesPerSecond: Int64? = nil, sendBytesPerSecond: Int64? = nil) {
        self.from = from
        self.to = to
        self.receiveBytesPerSecond = receiveBytesPerSecond
        self.sendBytesPerSecond = sendBytesPerSecond
    }

    /// Whether the period holds at `second` of the day (a validated entry: times that parse, not equal).
    func covers(secondOfDay second: Int) -> Bool {
        guard let start = TimeOfDay.seconds(from), let end = TimeOfDay.seconds(to) else { return false }
        return start < end ? (start..<end).contains(second) : second >= start || second < end
    }

    /// The period as ranges of seconds within one day (two when it wraps past midnight).
    var spans: [Range<Int>] {
        guard let start = TimeOfDay.seconds(from), let end = TimeOfDay.seconds(to), start != end else { return [] }
        return start < end ? [start..<end] : [start..<86_400, 0..<end].filter { !$0.isEmpty }
    }
}

/// A limit's values at one moment: bytes per second each way, nil for unlimited.
public struct RateLimitRates: Sendable, Hashable {
    public var receive: Int64?
    public var send: Int64?

    public init(receive: Int64?, send: Int64?) {
        self.receive = receive
        self.send = send
    }

    public static let unlimited = RateLimitRates(receive: nil, send: nil)

    /// The lower of the two limits each way (unlimited is above every number).
    public func lowest(_ other: RateLimitRates) -> RateLimitRates {
        RateLimitRates(receive: Self.lower(receive, other.receive), send: Self.lower(send, other.send))
    }

    static func lower(_ a: Int64?, _ b: Int64?) -> Int64? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
}

/// `"HH:MM"` or `"HH:MM:SS"` (24-hour, two digits each) as seconds since midnight; `"24:00"` is the end of
/// the day (86400). Seconds are accepted so a schedule can put a boundary a few seconds ahead.
enum TimeOfDay {
    static func seconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        let (hours, minutes, seconds) = (numbers[0], numbers[1], numbers.count == 3 ? numbers[2] : 0)
        if hours == 24 { return minutes == 0 && seconds == 0 ? 86_400 : nil }
        guard hours < 24, minutes < 60, seconds < 60 else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }
}

extension TaskKind {
    /// The kinds a `rateLimit` applies to: those whose bytes go through the transfer engine's HTTP transfers
    /// (a webSocket or stream task's connection is not limited).
    public var isRateLimited: Bool { self == .data || self == .download || self == .upload }
}
