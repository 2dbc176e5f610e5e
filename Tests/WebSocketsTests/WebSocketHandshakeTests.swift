import Testing
import WebSockets

@Suite("WebSocket opening handshake (RFC 6455 §4)")
struct WebSocketHandshakeTests {
    private static func response(_ fields: [(String, String)], status: Int = 101) -> HTTPResponseHead {
        HTTPResponseHead(statusCode: status, reasonPhrase: "", fields: fields.map { (name: $0.0, value: $0.1) })
    }

    private static let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="
    private static let upgraded: [(String, String)] = [
        ("upgrade", "WebSocket"), ("Connection", "keep-alive, Upgrade"), ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
    ]

    @Test func theAcceptValueIsTheRFCsExample() {
        #expect(WebSocketHandshake.acceptValue(for: Self.sampleKey) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func eachConnectionGetsANewSixteenByteKey() {
        let keys = (0..<100).map { _ in WebSocketHandshake().key }
        #expect(Set(keys).count == 100)
        #expect(keys.allSatisfy { $0.utf8.count == 24 && $0.hasSuffix("==") })
    }

    @Test func theRequestAsksForTheUpgradeAndKeepsTheCallersFieldsButTheHandshakes() {
        let handshake = WebSocketHandshake(protocols: ["chat", "superchat"], key: Self.sampleKey)
        let head = String(
            decoding: handshake.requestHead(
                target: "/chat?room=1", host: "example.com:8080",
                fields: [("Cookie", "a=b"), ("Sec-WebSocket-Key", "forged"), ("connection", "close"), ("Authorization", "Basic eDp5")]),
            as: UTF8.self)
        #expect(head.hasPrefix("GET /chat?room=1 HTTP/1.1\r\nHost: example.com:8080\r\n"))
        #expect(head.hasSuffix("\r\n\r\n"))
        for line in [
            "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: \(Self.sampleKey)", "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Protocol: chat, superchat", "Cookie: a=b", "Authorization: Basic eDp5",
        ] {
            #expect(head.contains("\r\n\(line)\r\n"), "\(line)")
        }
        #expect(!head.contains("forged") && !head.contains("close"))
    }

    @Test func anUpgradeIsCheckedFieldByField() throws {
        let handshake = WebSocketHandshake(protocols: ["chat"], key: Self.sampleKey)
        #expect(try handshake.validate(Self.response(Self.upgraded)) == nil)
        #expect(try handshake.validate(Self.response(Self.upgraded + [("Sec-WebSocket-Protocol", "chat")])) == "chat")
        #expect(throws: WebSocketHandshakeError.notUpgraded(statusCode: 200)) {
            try handshake.validate(Self.response(Self.upgraded, status: 200))
        }
        #expect(throws: WebSocketHandshakeError.missingField("Upgrade")) {
            try handshake.validate(Self.response(Array(Self.upgraded.dropFirst())))
        }
        #expect(throws: WebSocketHandshakeError.missingField("Connection")) {
            try handshake.validate(Self.response([Self.upgraded[0], ("Connection", "keep-alive"), Self.upgraded[2]]))
        }
        #expect(throws: WebSocketHandshakeError.missingField("Sec-WebSocket-Accept")) {
            try handshake.validate(Self.response([Self.upgraded[0], Self.upgraded[1], ("Sec-WebSocket-Accept", "x")]))
        }
        #expect(throws: WebSocketHandshakeError.unexpectedField("Sec-WebSocket-Extensions")) {
            try handshake.validate(Self.response(Self.upgraded + [("Sec-WebSocket-Extensions", "permessage-deflate")]))
        }
        #expect(throws: WebSocketHandshakeError.unexpectedField("Sec-WebSocket-Protocol")) {
            try handshake.validate(Self.response(Self.upgraded + [("Sec-WebSocket-Protocol", "other")]))
        }
    }

    @Test func aResponseHeadIsReadOnceWholeAndWhatFollowsIsLeft() throws {
        let bytes = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nX-Empty:\r\n\r\n".utf8) + [0x81, 0x00]
        #expect(try HTTPResponseHead.parse(Array(bytes.prefix(20))) == nil)
        let (head, used) = try #require(try HTTPResponseHead.parse(bytes))
        #expect(head.statusCode == 101 && head.reasonPhrase == "Switching Protocols")
        #expect(head.value(of: "UPGRADE") == "websocket" && head.value(of: "x-empty") == "")
        #expect(used == bytes.count - 2)
        for malformed in [
            "HTTP/1.0 101 OK\r\n\r\n", "HTTP/1.1 1010 OK\r\n\r\n", "HTTP/1.1 101 OK\r\nNo colon\r\n\r\n",
            "HTTP/1.1 101\r\nBad name: x\r\n\r\n",
        ] {
            #expect(throws: WebSocketHandshakeError.malformedResponse, "\(malformed)") { try HTTPResponseHead.parse(Array(malformed.utf8)) }
        }
        #expect(throws: WebSocketHandshakeError.malformedResponse) {
            try HTTPResponseHead.parse([UInt8](repeating: 65, count: 100), limit: 50)
        }
    }
}
