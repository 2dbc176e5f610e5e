import Foundation

/// The opening handshake as a server reads it (RFC 6455 §4.2.1): the client's `GET` checked field by
/// field, and the fields of the 101 that accepts it (§4.2.2). No extension is accepted (an offer of one,
/// such as `permessage-deflate`, is simply not answered, which declines it).
public struct WebSocketServerHandshake: Sendable, Equatable {
    /// `Sec-WebSocket-Key` as the client sent it.
    public let key: String
    /// `Sec-WebSocket-Protocol` offered, in the client's order of preference.
    public let offeredProtocols: [String]

    /// Checks a request: `method`, and `field(name)` — a header field's values joined by ", " (names
    /// compared case-insensitively), nil when absent.
    /// - Throws: `WebSocketUpgradeRefusal` naming the first field at fault, with the status to answer.
    public init(method: String, field: (String) -> String?) throws(WebSocketUpgradeRefusal) {
        guard Self.tokens(field("Upgrade")).contains("websocket") else {
            throw WebSocketUpgradeRefusal(
                status: 426, field: "Upgrade", detail: "this resource is a WebSocket: send Upgrade: websocket (RFC 6455 §4.1)")
        }
        guard method == "GET" else {
            throw WebSocketUpgradeRefusal(status: 400, field: nil, detail: "a WebSocket upgrade is a GET, not a \(method)")
        }
        guard Self.tokens(field("Connection")).contains("upgrade") else {
            throw WebSocketUpgradeRefusal(status: 400, field: "Connection", detail: "a WebSocket upgrade needs Connection: Upgrade")
        }
        guard field("Sec-WebSocket-Version")?.trimmingCharacters(in: .whitespaces) == "13" else {
            throw WebSocketUpgradeRefusal(
                status: 426, field: "Sec-WebSocket-Version", detail: "only version 13 of the WebSocket protocol is spoken")
        }
        let key = field("Sec-WebSocket-Key")?.trimmingCharacters(in: .whitespaces) ?? ""
        guard let nonce = Data(base64Encoded: key), nonce.count == 16, nonce.base64EncodedString() == key else {
            throw WebSocketUpgradeRefusal(
                status: 400, field: "Sec-WebSocket-Key", detail: "must be 16 bytes in base64 (24 characters, padding included)")
        }
        let offered = (field("Sec-WebSocket-Protocol") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard offered.allSatisfy(Self.isToken) else {
            throw WebSocketUpgradeRefusal(
                status: 400, field: "Sec-WebSocket-Protocol", detail: "must be a comma-separated list of tokens (RFC 9110 §5.6.2)")
        }
        self.key = key
        self.offeredProtocols = offered
    }

    /// The 101's fields: the upgrade, the accept value, and `chosen` when the client offered it (a server
    /// may only choose among those offered, §4.2.2; otherwise no subprotocol is named).
    public func responseFields(protocol chosen: String?) -> [(name: String, value: String)] {
        var fields = [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Accept", WebSocketHandshake.acceptValue(for: key)),
        ]
        if let chosen, offeredProtocols.contains(chosen) { fields.append(("Sec-WebSocket-Protocol", chosen)) }
        return fields
    }

    /// A list field's tokens, lowercased (`keep-alive, Upgrade` → keep-alive, upgrade).
    private static func tokens(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// RFC 9110's `token`: visible ASCII but the delimiters.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !#"()<>@,;:\"/[]?={}"#.utf8.contains($0) }
    }
}

/// Why a request does not open a WebSocket: the status to answer (400, or 426 with the fields that say
/// what to send: `Upgrade: websocket`, `Sec-WebSocket-Version: 13`, §4.2.2 and §4.4), and the field at fault.
public struct WebSocketUpgradeRefusal: Error, Sendable, Equatable {
    public let status: Int
    /// The request header field at fault (nil when it is the method).
    public let field: String?
    public let detail: String

    /// Fields the refusal carries: a 426 names the protocol and version to upgrade to.
    public var responseFields: [(name: String, value: String)] {
        guard status == 426 else { return [] }
        return [("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13")]
    }
}
