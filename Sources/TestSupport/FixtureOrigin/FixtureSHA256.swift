/// Streaming SHA-256 (FIPS 180-4), so the origin can digest uploads while reading them.
///
/// TestSupport depends on neither swift-crypto nor OpenSSL, and the origin must hash bodies of hundreds of
/// megabytes without keeping them. Test builds are `-Onone`, where ranges, arrays and generic shifts are
/// calls: the state lives in raw buffers, loops are `while`, shifts are masking (`&>>`) and the rotation is
/// `@_transparent`. That took a debug build from 6 to about 50 MB/s.
final class FixtureSHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Layout: 8 words of chaining state, 64 words of message schedule, 64 round constants.
    private let words: UnsafeMutablePointer<UInt32>
    private let block: UnsafeMutablePointer<UInt8>
    private var blockCount = 0
    private var totalBytes: UInt64 = 0

    init() {
        self.words = .allocate(capacity: 136)
        self.words.initialize(repeating: 0, count: 136)
        let initial: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        for index in 0..<8 { self.words[index] = initial[index] }
        for index in 0..<64 { self.words[72 + index] = Self.roundConstants[index] }
        self.block = .allocate(capacity: 64)
        self.block.initialize(repeating: 0, count: 64)
    }

    deinit {
        self.words.deallocate()
        self.block.deallocate()
    }

    /// The hex digest of `bytes`, in one call.
    static func hex(of bytes: [UInt8]) -> String {
        let hasher = FixtureSHA256()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalizeHex()
    }

    /// Adds `bytes` to the message.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else { return }
        self.totalBytes &+= UInt64(bytes.count)
        var offset = 0
        if self.blockCount > 0 {
            let take = min(64 - self.blockCount, bytes.count)
            (self.block + self.blockCount).update(from: base, count: take)
            self.blockCount += take
            offset = take
            guard self.blockCount == 64 else { return }
            Self.compress(self.block, self.words)
            self.blockCount = 0
        }
        while bytes.count - offset >= 64 {  // bounded: offset grows by 64 each turn
            Self.compress(base + offset, self.words)
            offset += 64
        }
        let rest = bytes.count - offset
        if rest > 0 {
            self.block.update(from: base + offset, count: rest)
            self.blockCount = rest
        }
    }

    /// Pads the message and returns the digest as 64 lowercase hex digits. Call once, after the last update.
    func finalizeHex() -> String {
        let bitLength = self.totalBytes &* 8
        var padding: [UInt8] = [0x80]
        let afterMarker = (self.blockCount + 1) % 64
        padding += [UInt8](repeating: 0, count: afterMarker <= 56 ? 56 - afterMarker : 120 - afterMarker)
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }
        let total = self.totalBytes
        padding.withUnsafeBytes { self.update($0) }
        self.totalBytes = total
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for index in 0..<8 {
            let word = self.words[index]
            for shift in stride(from: 28, through: 0, by: -4) {
                text.append(digits[Int((word >> UInt32(shift)) & 0xF)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func compress(_ data: UnsafePointer<UInt8>, _ words: UnsafeMutablePointer<UInt32>) {
        let schedule = words + 8
        let constants = words + 72
        var index = 0
        while index < 16 {
            let byte = data + index &* 4
            schedule[index] =
                UInt32(byte[0]) &<< 24 | UInt32(byte[1]) &<< 16 | UInt32(byte[2]) &<< 8 | UInt32(byte[3])
            index &+= 1
        }
        while index < 64 {
            let early = schedule[index &- 15]
            let late = schedule[index &- 2]
            let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early &>> 3)
            let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late &>> 10)
            schedule[index] = schedule[index &- 16] &+ sigma0 &+ schedule[index &- 7] &+ sigma1
            index &+= 1
        }
        var a = words[0]
        var b = words[1]
        var c = words[2]
        var d = words[3]
        var e = words[4]
        var f = words[5]
        var g = words[6]
        var h = words[7]
        index = 0
        while index < 64 {
            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            h = g
            g = f
            f = e
            e = d &+ temp1
            d = c
            c = b
            b = a
            a = temp1 &+ sum0 &+ majority
            index &+= 1
        }
        words[0] &+= a
        words[1] &+= b
        words[2] &+= c
        words[3] &+= d
        words[4] &+= e
        words[5] &+= f
        words[6] &+= g
        words[7] &+= h
    }
}

extension UInt32 {
    /// Masking shifts only: they are `@_transparent`, where `>>` and `<<` are generic calls at `-Onone`.
    @_transparent
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self &>> count) | (self &<< (32 &- count))
    }
}

@available(*, unavailable)
extension FixtureSHA256: Sendable {}
