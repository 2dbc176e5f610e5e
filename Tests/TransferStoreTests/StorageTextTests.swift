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

    /// The records write their dates with `storageText`: GRDB asks the requirement, so this is what it gets.
    @Test func recordsEncodeDatesWithStorageText() {
        func strategy<Record: EncodableRecord>(_: Record.Type) -> DatabaseDateEncodingStrategy {
            Record.databaseDateEncodingStrategy(for: "createdAt")
        }
        let date = Date(timeIntervalSince1970: 1_795_000_000.123)
        for found in [
            strategy(SessionRecord.self), strategy(EventRecord.self), strategy(BlobRecord.self), strategy(IdempotencyRecord.self),
        ] {
            guard case .custom(let encode) = found else {
                Issue.record("GRDB's default strategy, not storageText")
                continue
            }
            #expect(encode(date)?.databaseValue == date.storageText.databaseValue)
        }
    }
}
