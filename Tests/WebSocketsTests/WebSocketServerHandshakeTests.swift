import Testing
import WebSockets

@Suite("WebSocket opening handshake, the server's side (RFC 6455 §4.2)")
struct WebSocketServerHandshakeTests {
    private static let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="
    private static let upgrade: [String: String] = [
        "upgrade": "websocket", "connection": "keep-alive, Upgrade", "sec-websocket-key": sampleKey, "sec-websocket-version": "13",
    ]

    private static func read(_ fields: [String: String], method: String = "GET") throws(WebSocketUpgradeRefusal)
        -> WebSocketServerHandshake
    {
        try WebSocketServerHandshake(method: method) { fields[$0.lowercased()] }
    }

    private static func refusal(_ fields: [String: String], method: String = "GET") -> WebSocketUpgradeRefusal? {
        do {
            _ = try read(fields, method: method)
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidUpgradeIsAnsweredWithTheRFCsAcceptValue() throws {
        let handshake = try Self.read(Self.upgrade.merging(["upgrade": "WebSocket"]) { $1 })
        #expect(handshake.key == Self.sampleKey && handshake.offeredProtocols.isEmpty)
        let fields = handshake.responseFields(protocol: nil)
        #expect(fields.map(\.name) == ["Upgrade", "Connection", "Sec-WebSocket-Accept"])
        #expect(fields.last?.value == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func theSubprotocolIsNamedOnlyWhenTheClientOfferedIt() throws {
        let handshake = try Self.read(Self.upgrade.merging(["sec-websocket-protocol": "chat, superchat"]) { $1 })
        #expect(handshake.offeredProtocols == ["chat", "superchat"])
        #expect(handshake.responseFields(protocol: "superchat").last! == ("Sec-WebSocket-Protocol", "superchat"))
        #expect(!handshake.responseFields(protocol: "other").contains { $0.name == "Sec-WebSocket-Protocol" })
        #expect(!handshake.responseFields(protocol: nil).contains { $0.name == "Sec-WebSocket-Protocol" })
    }

    /// Each required field missing or wrong: the status and the field at fault. A request that does not ask
    /// for the upgrade at all, or for another version, gets 426 with the fields saying what to send.
    @Test(
        arguments: [
            ("upgrade", nil, 426, "Upgrade"), ("upgrade", "h2c", 426, "Upgrade"),
            ("connection", nil, 400, "Connection"), ("connection", "keep-alive", 400, "Connection"),
            ("sec-websocket-version", nil, 426, "Sec-WebSocket-Version"), ("sec-websocket-version", "8", 426, "Sec-WebSocket-Version"),
            ("sec-websocket-key", nil, 400, "Sec-WebSocket-Key"), ("sec-websocket-key", "c2hvcnQ=", 400, "Sec-WebSocket-Key"),
            ("sec-websocket-key", "not base64 at all!!!!!!=", 400, "Sec-WebSocket-Key"),
            ("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ", 400, "Sec-WebSocket-Key"),
            ("sec-websocket-protocol", "chat, , x", 400, "Sec-WebSocket-Protocol"),
            ("sec-websocket-protocol", "a b", 400, "Sec-WebSocket-Protocol"),
        ] as [(String, String?, Int, String)])
    func aRequestThatIsNotAValidUpgradeIsRefusedNamingTheField(name: String, value: String?, status: Int, field: String) {
        var fields = Self.upgrade
        fields[name] = value
        let refusal = Self.refusal(fields)
        #expect(refusal?.status == status && refusal?.field == field, "\(String(describing: refusal))")
        #expect(refusal?.responseFields.contains { $0 == ("Upgrade", "websocket") } == (status == 426))
        #expect(refusal?.responseFields.contains { $0 == ("Sec-WebSocket-Version", "13") } == (status == 426))
    }

    @Test func anUpgradeIsAGet() {
        let refusal = Self.refusal(Self.upgrade, method: "POST")
        #expect(refusal?.status == 400 && refusal?.field == nil)
    }

    /// The encoder's role decides the masking, and the parser of the other role reads what it wrote.
    @Test(arguments: [WebSocketRole.client, .server])
    func eachRoleWritesWhatTheOtherReads(role: WebSocketRole) throws {
        let frame = WebSocketFrame(opcode: .text, payload: Array("relayed".utf8))
        let bytes = WebSocketFrameEncoder.frame(frame, from: role)
        #expect(bytes[1] & 0x80 == (role == .client ? 0x80 : 0))
        var reader = WebSocketFrameParser(role: role == .client ? .server : .client, maximumPayload: 100)
        reader.append(bytes)
        #expect(try reader.nextFrame() == frame)
        var sameRole = WebSocketFrameParser(role: role, maximumPayload: 100)
        sameRole.append(bytes)
        #expect(throws: WebSocketProtocolError.self) { try sameRole.nextFrame() }
    }
}
