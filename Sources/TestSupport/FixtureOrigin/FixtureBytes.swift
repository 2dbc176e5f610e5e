/// The deterministic bodies the origin serves, so tests can compute what they should receive.
///
/// Binary bytes are SplitMix64 in counter mode: word `k` (0-based) is `mix(seed &+ (k &+ 1) &* γ)` with
/// γ = 0x9E3779B97F4A7C15 and SplitMix64's finaliser as `mix`, and byte `i` is byte `i % 8` of word `i / 8`
/// in little-endian order. Counter mode gives random access, so a range is served without its prefix.
enum FixtureBytes {
    private static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The first `count` binary bytes for `seed`.
    static func binary(count: Int, seed: UInt64) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(0, count)) { buffer, initialized in
            Self.fill(buffer, offset: 0, seed: seed)
            initialized = buffer.count
        }
    }

    /// Fills `buffer` with the binary bytes at `offset ..< offset + buffer.count` for `seed`.
    ///
    /// Written with `while` loops and masking shifts because test builds are `-Onone`, where ranges and
    /// generic shifts are calls (see ``FixtureSHA256``).
    static func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>, offset: Int, seed: UInt64) {
        guard let base = buffer.baseAddress else { return }
        let count = buffer.count
        var position = 0
        while position < count {
            let absolute = offset &+ position
            var word = Self.word(UInt64(absolute / 8), seed: seed) &>> UInt64((absolute % 8) &* 8)
            var lane = absolute % 8
            while lane < 8, position < count {
                base[position] = UInt8(truncatingIfNeeded: word)
                word = word &>> 8
                lane &+= 1
                position &+= 1
            }
        }
    }

    /// `count` bytes of compressible ASCII text: lorem ipsum lines numbered from 1, cut at `count`.
    static func text(count: Int) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(count + 128)
        var line = 1
        while text.count < count {  // bounded: every line adds at least 100 bytes
            text += Array("\(line): Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod ".utf8)
            text += Array("tempor incididunt ut labore et dolore magna aliqua.\n".utf8)
            line += 1
        }
        return Array(text.prefix(count))
    }

    @_transparent
    private static func word(_ index: UInt64, seed: UInt64) -> UInt64 {
        var z = seed &+ (index &+ 1) &* Self.gamma
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }
}
