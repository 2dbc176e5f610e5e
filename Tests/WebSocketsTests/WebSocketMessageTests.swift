import Testing
import WebSockets

@Suite("WebSocket messages and close frames (RFC 6455 §5.4, §5.5, §7.4)")
struct WebSocketMessageTests {
    @Test func fragmentsJoinWithControlFramesBetweenThemAndTextSplitInsideACharacter() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 100)
        let text = Array("héllo €".utf8)
        let cut = 2  // inside the two bytes of "é"
        #expect(try assembler.receive(.init(isFinal: false, opcode: .text, payload: Array(text[..<cut]))) == nil)
        #expect(try assembler.receive(.init(opcode: .ping, payload: [9])) == .ping([9]))
        #expect(try assembler.receive(.init(isFinal: false, opcode: .continuation, payload: Array(text[cut..<7]))) == nil)
        #expect(try assembler.receive(.init(opcode: .pong, payload: [])) == .pong([]))
        #expect(try assembler.receive(.init(opcode: .continuation, payload: Array(text[7...]))) == .message(.string("héllo €")))
        #expect(try assembler.receive(.init(opcode: .binary, payload: [0, 255])) == .message(.data([0, 255])))
    }

    @Test func fragmentsOutOfOrderAreProtocolErrors() {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 100)
        #expect(throws: WebSocketProtocolError.self) { try assembler.receive(.init(opcode: .continuation, payload: [1])) }
        var interrupted = WebSocketMessageAssembler(maximumMessageSize: 100)
        _ = try? interrupted.receive(.init(isFinal: false, opcode: .binary, payload: [1]))
        #expect(throws: WebSocketProtocolError.self) { try interrupted.receive(.init(opcode: .text, payload: [65])) }
    }

    @Test func aMessageOverTheLimitAcrossFragmentsIsTooBig() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 10)
        #expect(try assembler.receive(.init(isFinal: false, opcode: .binary, payload: [UInt8](repeating: 1, count: 6))) == nil)
        #expect(throws: WebSocketProtocolError.messageTooBig(limit: 10)) {
            try assembler.receive(.init(opcode: .continuation, payload: [UInt8](repeating: 1, count: 5)))
        }
        var exact = WebSocketMessageAssembler(maximumMessageSize: 10)
        _ = try exact.receive(.init(isFinal: false, opcode: .binary, payload: [UInt8](repeating: 1, count: 6)))
        #expect(
            try exact.receive(.init(opcode: .continuation, payload: [1, 1, 1, 1])) == .message(.data([UInt8](repeating: 1, count: 10))))
        #expect(WebSocketProtocolError.messageTooBig(limit: 10).closeCode == .messageTooBig)
    }

    @Test func textThatIsNotUTF8FailsWith1007() {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 100)
        #expect(throws: WebSocketProtocolError.invalidUTF8) { try assembler.receive(.init(opcode: .text, payload: [0xC3, 0x28])) }
        #expect(WebSocketProtocolError.invalidUTF8.closeCode == .invalidFramePayloadData)
    }

    @Test func closeFramesCarryNothingOrACodeAPeerMaySendAndAUTF8Reason() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 100)
        #expect(try assembler.receive(.init(opcode: .close)) == .close(code: nil, reason: ""))
        for code in [1000, 1001, 1003, 1007, 1011, 1012, 1014, 3000, 4999] {
            let payload = WebSocketFrameEncoder.closePayload(code: .init(rawValue: code), reason: "bye")
            #expect(try assembler.receive(.init(opcode: .close, payload: payload)) == .close(code: .init(rawValue: code), reason: "bye"))
        }
        for code in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000] {
            let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
            #expect(throws: WebSocketProtocolError.self, "\(code)") { try assembler.receive(.init(opcode: .close, payload: payload)) }
        }
        #expect(throws: WebSocketProtocolError.self) { try assembler.receive(.init(opcode: .close, payload: [3])) }
        #expect(throws: WebSocketProtocolError.invalidUTF8) { try assembler.receive(.init(opcode: .close, payload: [3, 232, 0xFF])) }
    }

    @Test func aCloseReasonIsCutToFitAControlFrameAtACharacter() {
        let payload = WebSocketFrameEncoder.closePayload(code: .goingAway, reason: String(repeating: "é", count: 100))
        #expect(payload.count == 2 + 122)  // 61 two-byte characters: a 62nd would pass 123 bytes
        #expect(String(validating: payload.dropFirst(2), as: UTF8.self) == String(repeating: "é", count: 61))
        #expect(payload[0] == 0x03 && payload[1] == 0xE9)
    }
}
