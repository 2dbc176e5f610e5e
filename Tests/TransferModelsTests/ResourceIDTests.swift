import Foundation
import Testing
import TransferModels

@Suite("Resource ids")
struct ResourceIDTests {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// The 128-bit value of an id's 22 base62 digits.
    private static func value(of id: String) -> UInt128 {
        id.utf8.suffix(22).reduce(UInt128(0)) { $0 * 62 + UInt128(alphabet.firstIndex(of: $1)!) }
    }

    @Test func anIdIsItsPrefixThen22Base62DigitsWhoseFirst48BitsAreTheMilliseconds() {
        let now = Date(timeIntervalSince1970: 1_795_000_000.123)
        for _ in 0..<1000 {
            let id = ResourceID.make(prefix: "tsk", now: now)
            #expect(id.utf8.count == 26 && id.hasPrefix("tsk_"))
            #expect(ResourceID.isWellFormed(id, prefix: "tsk"))
            #expect(Self.value(of: id) >> 80 == 1_795_000_000_123)
        }
    }

    @Test func idsAreDistinctAndALaterMillisecondSortsAfter() {
        let now = Date()
        let ids = (0..<10_000).map { _ in ResourceID.make(prefix: "evt", now: now) }
        #expect(Set(ids).count == ids.count)
        let later = (0..<1000).map { _ in ResourceID.make(prefix: "evt", now: now.addingTimeInterval(0.001)) }
        #expect(later.min()! > ids.max()!)
        // The random bits are spread over the whole 80 (no byte left at zero).
        let randomBits: UInt128 = (1 << 80) - 1
        #expect(ids.map { Self.value(of: $0) & randomBits }.reduce(0, |) == randomBits)
    }
}
