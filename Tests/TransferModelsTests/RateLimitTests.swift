import Foundation
import JSONCodec
import Testing

@testable import TransferModels

/// `rateLimit`: the timetable's times and periods, their validation (naming the field), and which limit
/// holds at a given moment. Pure values.
@Suite("Rate limits")
struct RateLimitTests {
    /// 2026-01-15 (winter: Paris is UTC+1) at `hours:minutes:seconds` UTC.
    static func utc(_ hours: Int, _ minutes: Int, _ seconds: Int = 0) -> Date {
        Date(timeIntervalSince1970: 1_768_435_200 + Double(hours * 3600 + minutes * 60 + seconds))
    }

    static func parse(_ json: String) throws(RequestDecodingError) -> RateLimit {
        try RateLimitInput.parse(json, setting: "rateLimit")
    }

    @Test
    func timesOfDayAreHoursMinutesAndOptionalSeconds() {
        #expect(TimeOfDay.seconds("00:00") == 0)
        #expect(TimeOfDay.seconds("08:30") == 30_600)
        #expect(TimeOfDay.seconds("23:59:59") == 86_399)
        #expect(TimeOfDay.seconds("24:00") == 86_400)
        for bad in ["8:00", "24:01", "12:60", "12:00:60", "12", "12:00:00:00", "ab:cd", "", "+1:00", "12:0"] {
            #expect(TimeOfDay.seconds(bad) == nil, "\(bad)")
        }
    }

    @Test
    func aFlatLimitHoldsAllDay() throws {
        let limit = try Self.parse(#"{"receiveBytesPerSecond": 1000}"#)
        #expect(limit.rates(at: Self.utc(3, 0)) == RateLimitRates(receive: 1000, send: nil))
        #expect(try Self.parse("{}").rates(at: Self.utc(3, 0)) == .unlimited)
    }

    @Test
    func aTimetableHoldsInItsPeriodsInItsZoneAndWrapsMidnight() throws {
        let limit = try Self.parse(
            #"""
            {"schedule": [{"from": "08:00", "to": "18:00", "receiveBytesPerSecond": 2000000},
                          {"from": "22:00", "to": "06:00:30", "receiveBytesPerSecond": 100, "sendBytesPerSecond": 50}],
             "timeZone": "Europe/Paris"}
            """#)
        #expect(limit.rates(at: Self.utc(7, 0)) == RateLimitRates(receive: 2_000_000, send: nil), "08:00 in Paris")
        #expect(limit.rates(at: Self.utc(6, 59, 59)) == .unlimited, "07:59:59 in Paris: between periods")
        #expect(limit.rates(at: Self.utc(17, 0)) == .unlimited, "18:00 in Paris: `to` is exclusive")
        #expect(limit.rates(at: Self.utc(21, 30)) == RateLimitRates(receive: 100, send: 50), "22:30, wrapping")
        #expect(limit.rates(at: Self.utc(5, 0, 29)) == RateLimitRates(receive: 100, send: 50), "06:00:29 the next day")
        #expect(limit.rates(at: Self.utc(5, 0, 30)) == .unlimited, "06:00:30")
        let untilMidnight = try Self.parse(#"{"schedule": [{"from": "12:00", "to": "24:00", "sendBytesPerSecond": 7}], "timeZone": "UTC"}"#)
        #expect(untilMidnight.rates(at: Self.utc(23, 59, 59)).send == 7)
        #expect(untilMidnight.rates(at: Self.utc(0, 0)).send == nil)
    }

    @Test
    func invalidLimitsNameTheirField() {
        let cases: [(String, String)] = [
            (#"{"receiveBytesPerSecond": 0}"#, "rateLimit.receiveBytesPerSecond"),
            (#"{"sendBytesPerSecond": 1000000000001}"#, "rateLimit.sendBytesPerSecond"),
            (#"{"timeZone": "UTC"}"#, "rateLimit.timeZone"),
            (#"{"schedule": []}"#, "rateLimit.schedule"),
            (#"{"schedule": [{"from": "08:00", "to": "09:00"}], "receiveBytesPerSecond": 1}"#, "rateLimit.receiveBytesPerSecond"),
            (#"{"schedule": [{"from": "08:00", "to": "09:00"}], "timeZone": "Nowhere/Else"}"#, "rateLimit.timeZone"),
            (#"{"schedule": [{"to": "09:00"}]}"#, "rateLimit.schedule[0].from"),
            (#"{"schedule": [{"from": "24:00", "to": "09:00"}]}"#, "rateLimit.schedule[0].from"),
            (#"{"schedule": [{"from": "08:00", "to": "25:00"}]}"#, "rateLimit.schedule[0].to"),
            (#"{"schedule": [{"from": "00:00", "to": "24:00"}]}"#, "rateLimit.schedule[0].to"),
            (
                #"{"schedule": [{"from": "08:00", "to": "09:00", "receiveBytesPerSecond": -5}]}"#,
                "rateLimit.schedule[0].receiveBytesPerSecond"
            ),
            (#"{"schedule": [{"from": "20:00", "to": "04:00"}, {"from": "03:00", "to": "05:00"}]}"#, "rateLimit.schedule[1]"),
            (#"{"schedule": [{"from": "08:00", "to": "12:00"}, {"from": "11:59:59", "to": "13:00"}]}"#, "rateLimit.schedule[1]"),
            (#"{"receiveBytesPerSecond": 1, "extra": 2}"#, "rateLimit.extra"),
        ]
        for (json, field) in cases {
            #expect(throws: RequestDecodingError.self, "\(json)") { try Self.parse(json) }
            do {
                _ = try Self.parse(json)
            } catch {
                #expect(error.field == field, "\(json): \(error)")
            }
        }
        // Adjacent periods do not overlap: `to` is exclusive.
        #expect(throws: Never.self) {
            try Self.parse(#"{"schedule": [{"from": "08:00", "to": "12:00"}, {"from": "12:00", "to": "08:00"}]}"#)
        }
    }

    @Test
    func theLowestLimitWinsEachWay() {
        let a = RateLimitRates(receive: 100, send: nil)
        let b = RateLimitRates(receive: 300, send: 20)
        #expect(a.lowest(b) == RateLimitRates(receive: 100, send: 20))
        #expect(RateLimitRates.unlimited.lowest(.unlimited) == .unlimited)
        #expect(RateLimit(RateLimitRates.unlimited) == nil)
        #expect(RateLimit(a) == RateLimit(receiveBytesPerSecond: 100))
    }
}
