import Foundation
import GRDB
import JSONCodec
import Testing
import TransferModels
import TransferStore

/// `Date.storageText` replaces GRDB's DateFormatter on the hot path: it must write the very same text,
/// or rows written before and after would compare and sort differently.
@Suite struct StorageTextTests {
    @Test func matchesGRDBForTimesOnAMillisecondAndBetween() {
        var generator = SystemRandomNumberGenerator()
        var dates: [Date] = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 951_782_400.999),  // 2000-02-29
            Date(timeIntervalSince1970: 4_102_444_799.5), .nowMilliseconds, Date(),
        ]
        for _ in 0..<2_000 {
            let milliseconds = Double(Int64.random(in: 0...4_102_444_800_000, using: &generator))
            dates.append(Date(timeIntervalSince1970: (milliseconds + 0.25) / 1000))  // as `nowMilliseconds` makes them
            dates.append(Date(timeIntervalSince1970: milliseconds / 1000 + Double.random(in: 0.0001..<0.0009)))
        }
        for date in dates {
            guard case .string(let expected) = date.databaseValue.storage else {
                Issue.record("GRDB stored \(date) as something other than text")
                continue
            }
            #expect(date.storageText == expected, "\(date.timeIntervalSince1970)")
        }
    }
}
