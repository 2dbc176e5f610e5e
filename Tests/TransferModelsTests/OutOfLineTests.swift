import Testing

@testable import TransferModels

/// A member kept out of line still behaves as a value: copies never see each other's writes.
@Suite("Out-of-line members", .timeLimit(.minutes(1)))
struct OutOfLineTests {
    struct Holder {
        @OutOfLine var numbers: [Int] = [1, 2, 3]
        var small = 0
    }

    @Test
    func aCopyKeepsItsValueWhenTheOriginalIsWritten() {
        var original = Holder()
        let copy = original
        original.numbers.append(4)
        original.numbers[0] = 9
        #expect(original.numbers == [9, 2, 3, 4])
        #expect(copy.numbers == [1, 2, 3], "the copy shared the storage until the write, then kept its own")
        var second = copy
        second.numbers = [7]
        #expect(copy.numbers == [1, 2, 3] && second.numbers == [7])
    }

    @Test
    func theHolderIsTheSizeOfAReferenceAndItsOtherFields() {
        #expect(MemoryLayout<Holder>.size == MemoryLayout<Int>.size * 2)
    }

    @Test
    func aValueInAnOptionalChainIsWrittenInPlace() {
        var table: [String: Holder] = ["a": Holder()]
        table["a"]?.numbers.append(5)
        #expect(table["a"]?.numbers == [1, 2, 3, 5])
    }
}
