import Foundation
public import JSONCodec

/// `rateLimit` as a client (or the operator's `URLSESSIOND_RATE_LIMIT` / `URLSESSIOND_TENANT_RATE_LIMIT`)
/// sends it: flat limits, or a `schedule` with an optional `timeZone`, never both.
public struct RateLimitInput: Decodable, Sendable, Hashable {
    public var receiveBytesPerSecond: Int64?
    public var sendBytesPerSecond: Int64?
    public var schedule: [RateLimitPeriodInput]?
    public var timeZone: String?

    public init(
        receiveBytesPerSecond: Int64? = nil, sendBytesPerSecond: Int64? = nil, schedule: [RateLimitPeriodInput]? = nil,
        timeZone: String? = nil
    ) {
        self.receiveBytesPerSecond = receiveBytesPerSecond
        self.sendBytesPerSecond = sendBytesPerSecond
        self.schedule = schedule
        self.timeZone = timeZone
    }

    /// The most entries a timetable may have (one per half hour).
    public static let maximumPeriods = 48
    /// Limits are whole bytes per second from 1 to 1 TB/s.
    public static let rateRange: ClosedRange<Int64> = 1...1_000_000_000_000

    /// The limit, or the first invalid field (`<path>.schedule[1].from`, …): a rate outside `rateRange`,
    /// flat limits beside a schedule, a zone without one, an unknown zone, an empty schedule, a time that
    /// is not `HH:MM[:SS]`, an entry whose `from` equals its `to`, entries that overlap.
    public func validated(at path: String) throws(RequestDecodingError) -> RateLimit {
        guard let schedule else {
            if timeZone != nil { throw .invalidValue("\(path).timeZone", "only a schedule has a time zone") }
            try Self.rate(receiveBytesPerSecond, field: "\(path).receiveBytesPerSecond")
            try Self.rate(sendBytesPerSecond, field: "\(path).sendBytesPerSecond")
            return RateLimit(receiveBytesPerSecond: receiveBytesPerSecond, sendBytesPerSecond: sendBytesPerSecond)
        }
        for (name, value) in [("receiveBytesPerSecond", receiveBytesPerSecond), ("sendBytesPerSecond", sendBytesPerSecond)]
        where value != nil {
            throw .invalidValue("\(path).\(name)", "goes in the schedule's entries when there is a schedule")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw .invalidValue("\(path).timeZone", "is not a time zone identifier (IANA, e.g. Europe/Paris)")
        }
        guard (1...Self.maximumPeriods).contains(schedule.count) else {
            throw .invalidValue("\(path).schedule", "must have 1 to \(Self.maximumPeriods) entries")
        }
        var periods: [RateLimitPeriod] = []
        var taken: [(span: Range<Int>, index: Int)] = []
        for (index, input) in schedule.enumerated() {
            let field = "\(path).schedule[\(index)]"
            let period = try input.validated(at: field)
            for span in period.spans {
                if let other = taken.first(where: { $0.span.overlaps(span) }) {
                    throw .invalidValue(field, "overlaps \(path).schedule[\(other.index)]")
                }
            }
            taken += period.spans.map { ($0, index) }
            periods.append(period)
        }
        return RateLimit(schedule: periods, timeZone: timeZone)
    }

    static func rate(_ value: Int64?, field: String) throws(RequestDecodingError) {
        guard let value else { return }
        guard rateRange.contains(value) else {
            throw .invalidValue(field, "must be a whole number of bytes per second from 1 to \(rateRange.upperBound)")
        }
    }
}

/// One entry of `rateLimit.schedule` as sent.
public struct RateLimitPeriodInput: Decodable, Sendable, Hashable {
    public var from: String?
    public var to: String?
    public var receiveBytesPerSecond: Int64?
    public var sendBytesPerSecond: Int64?

    public init(from: String? = nil, to: String? = nil, receiveBytesPerSecond: Int64? = nil, sendBytesPerSecond: Int64? = nil) {
        self.from = from
        self.to = to
        self.receiveBytesPerSecond = receiveBytesPerSecond
        self.sendBytesPerSecond = sendBytesPerSecond
    }

    func validated(at path: String) throws(RequestDecodingError) -> RateLimitPeriod {
        guard let from else { throw .missingField("\(path).from", "is required: the start, HH:MM or HH:MM:SS") }
        guard let to else { throw .missingField("\(path).to", "is required: the end, HH:MM or HH:MM:SS (24:00 for midnight)") }
        guard let start = TimeOfDay.seconds(from), start < 86_400 else {
            throw .invalidValue("\(path).from", "must be a time of day, HH:MM or HH:MM:SS, 00:00 to 23:59:59")
        }
        guard let end = TimeOfDay.seconds(to) else {
            throw .invalidValue("\(path).to", "must be a time of day, HH:MM or HH:MM:SS, 00:00 to 24:00")
        }
        guard start != end % 86_400 else { throw .invalidValue("\(path).to", "must differ from from (a whole day is a flat limit)") }
        try RateLimitInput.rate(receiveBytesPerSecond, field: "\(path).receiveBytesPerSecond")
        try RateLimitInput.rate(sendBytesPerSecond, field: "\(path).sendBytesPerSecond")
        return RateLimitPeriod(
            from: from, to: to, receiveBytesPerSecond: receiveBytesPerSecond, sendBytesPerSecond: sendBytesPerSecond)
    }
}

extension RateLimitInput {
    /// An operator's limit from its JSON text (`URLSESSIOND_RATE_LIMIT`, `--rate-limit`): the limit, or why
    /// not, naming the setting.
    public static func parse(_ text: String, setting: String) throws(RequestDecodingError) -> RateLimit {
        let input: RateLimitInput
        do {
            input = try StrictJSONDecoder().decode(RateLimitInput.self, from: Data(text.utf8))
        } catch {
            throw RequestDecodingError(kind: error.kind, field: error.field.map { "\(setting).\($0)" } ?? setting, detail: error.detail)
        }
        return try input.validated(at: setting)
    }
}
