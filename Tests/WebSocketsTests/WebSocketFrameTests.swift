import Testing
import WebSockets

@Suite("WebSocket frames (RFC 6455 §5)")
struct WebSocketFrameTests {
    private static func payload(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    /// Every length encoding (7-bit, 16-bit, 64-bit) at its edges, masked by a client and read by a
    /// server, unmasked by a server and read by a client, fed whole and a byte at a time.
    @Test(arguments: [0, 1, 125, 126, 127, 65_535, 65_536, 70_001])
    func framesRoundTripAtEveryLengthEncoding(count: Int) throws {
        let frame = WebSocketFrame(isFinal: count % 2 == 0, opcode: .binary, payload: Self.payload(count))
        for (bytes, role) in [
            (WebSocketFrameEncoder.clientFrame(frame), WebSocketRole.server), (WebSocketFrameEncoder.serverFrame(frame), .client),
        ] {
            var whole = WebSocketFrameParser(role: role, maximumPayload: 1 << 20)
            whole.append(bytes)
            #expect(try whole.nextFrame() == frame)
            #expect(try whole.nextFrame() == nil)
            #expect(whole.bufferedCount == 0)
            if count <= 1000 {
                var trickled = WebSocketFrameParser(role: role, maximumPayload: 1 << 20)
                var frames: [WebSocketFrame] = []
                for byte in bytes {
                    trickled.append([byte])
                    if let next = try trickled.nextFrame() { frames.append(next) }
                }
                #expect(frames == [frame])
            }
        }
    }

    @Test func theLengthFieldUsesTheShortestForm() {
        #expect(WebSocketFrameEncoder.serverFrame(.init(opcode: .text, payload: Self.payload(125)))[1] == 125)
        #expect(WebSocketFrameEncoder.serverFrame(.init(opcode: .text, payload: Self.payload(126)))[1] == 126)
        #expect(WebSocketFrameEncoder.serverFrame(.init(opcode: .text, payload: Self.payload(65_536)))[1] == 127)
        let masked = WebSocketFrameEncoder.clientFrame(.init(opcode: .text, payload: Self.payload(10)))
        #expect(masked[0] == 0x81 && masked[1] == 0x80 | 10 && masked.count == 2 + 4 + 10)
    }

    @Test func maskingIsTheBytewiseXORWithTheKeyAtEveryLength() throws {
        let key: (UInt8, UInt8, UInt8, UInt8) = (0x37, 0xFA, 0x21, 0x3D)
        let keyBytes = [key.0, key.1, key.2, key.3]
        for count in 0..<40 {
            let original = Self.payload(count)
            var masked = original
            WebSocketMasking.apply(key: key, to: &masked)
            #expect(masked == original.enumerated().map { $0.element ^ keyBytes[$0.offset % 4] })
            WebSocketMasking.apply(key: key, to: &masked)
            #expect(masked == original)
        }
        // RFC 6455 §5.7: a masked "Hello".
        var frames = WebSocketFrameParser(role: .server, maximumPayload: 100)
        frames.append([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(try frames.nextFrame() == WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)))
    }

    @Test(
        arguments: [
            ([0xC1, 0x00], "reserved bits"),
            ([0x83, 0x00], "unknown opcode"),
            ([0x89, 0x80, 0, 0, 0, 0], "masked by the server"),
            ([0x09, 0x00], "fragmented control"),
            ([0x89, 0x7E, 0x00, 0x7E], "control over 125"),
            ([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], "64-bit top bit"),
        ] as [([UInt8], String)])
    func aClientRefusesWhatTheProtocolForbids(bytes: [UInt8], what: String) {
        var parser = WebSocketFrameParser(role: .client, maximumPayload: 1 << 20)
        parser.append(bytes)
        #expect(throws: WebSocketProtocolError.self, "\(what)") { try parser.nextFrame() }
        do {
            _ = try parser.nextFrame()
        } catch {
            #expect(error.closeCode == .protocolError)
        }
    }

    @Test func aServerRefusesAnUnmaskedFrame() {
        var parser = WebSocketFrameParser(role: .server, maximumPayload: 100)
        parser.append([0x81, 0x01, 0x41])
        #expect(throws: WebSocketProtocolError.protocolError("an unmasked frame from the client")) { try parser.nextFrame() }
    }

    /// A frame over the limit is refused from its header alone: nothing of its payload is waited for.
    @Test func aFrameOverTheLimitIsRefusedFromItsHeader() {
        var parser = WebSocketFrameParser(role: .client, maximumPayload: 1000)
        parser.append([0x82, 0x7E, 0x03, 0xE9])  // 1001 bytes announced, none sent
        #expect(throws: WebSocketProtocolError.messageTooBig(limit: 1000)) { try parser.nextFrame() }
    }

    @Test func framesFollowingEachOtherInOneReadAreAllReturned() throws {
        var bytes: [UInt8] = []
        let frames = [
            WebSocketFrame(isFinal: false, opcode: .text, payload: Array("Hel".utf8)),
            WebSocketFrame(opcode: .ping, payload: [1, 2]),
            WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)),
        ]
        for frame in frames { bytes += WebSocketFrameEncoder.serverFrame(frame) }
        var parser = WebSocketFrameParser(role: .client, maximumPayload: 100)
        parser.append(bytes.dropLast())
        #expect(try parser.nextFrame() == frames[0])
        #expect(try parser.nextFrame() == frames[1])
        #expect(try parser.nextFrame() == nil)
        parser.append(bytes.suffix(1))
        #expect(try parser.nextFrame() == frames[2])
    }
}
