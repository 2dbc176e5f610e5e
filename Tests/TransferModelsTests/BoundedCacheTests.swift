import Testing

@testable import TransferModels

/// The read caches' bound: never more than `capacity` entries, the oldest inserted forgotten first.
@Suite("Bounded cache")
struct BoundedCacheTests {
    @Test
    func forgetsTheOldestInsertedPastItsCapacity() {
        var cache = BoundedCache<String, Int>(capacity: 2)
        #expect(cache.insert(1, for: "a").isEmpty)
        #expect(cache.insert(2, for: "b").isEmpty)
        let evicted = cache.insert(3, for: "c")
        #expect(evicted.map(\.key) == ["a"], "\(evicted)")
        #expect(cache["a"] == nil && cache["b"] == 2 && cache["c"] == 3 && cache.count == 2)
    }

    @Test
    func aReplacedEntryCountsFromItsReplacement() {
        var cache = BoundedCache<String, Int>(capacity: 2)
        cache.insert(1, for: "a")
        cache.insert(2, for: "b")
        cache.insert(10, for: "a")  // now the newest
        let evicted = cache.insert(3, for: "c")
        #expect(evicted.map(\.key) == ["b"], "\(evicted)")
        #expect(cache["a"] == 10 && cache["c"] == 3)
    }

    @Test
    func replacingOneKeyOverAndOverKeepsOneEntry() {
        var cache = BoundedCache<Int, Int>(capacity: 3)
        for value in 0..<10_000 { cache.insert(value, for: 7) }
        cache.removeValue(forKey: 7)
        for key in 0..<5 { cache.insert(key, for: key) }
        #expect(cache.count == 3 && cache[0] == nil && cache[4] == 4, "\(cache.count)")
    }
}
