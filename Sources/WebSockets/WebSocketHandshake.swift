import Crypto
import Foundation

/// The opening handshake of a client (RFC 6455 §4.1): the `GET` that asks for the upgrade, and the
/// checks of the server's answer that make it a WebSocket connection.
public struct WebSocketHandshake: Sendable {
    /// `Sec-WebSocket-Key`: 16 random bytes in base64, new for each connection.
    public let key: String
    /// `Sec-WebSocket-Protocol` offered, in the caller's order of preference.
    public let protocols: [String]

    public init(protocols: [String] = [], key: String? = nil) {
        self.protocols = protocols
        if let key {
            self.key = key
        } else {
            var nonce = [UInt8](repeating: 0, count: 16)
            nonce.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, 16) }
            self.key = Data(nonce).base64EncodedString()
        }
    }

    /// The request head: `target` is the URL's path and query, `host` its authority; `fields` are the
    /// request's own header fields (cookies, credentials, the caller's), sent after the handshake's.
    public func requestHead(target: String, host: String, fields: [(name: String, value: String)]) -> [UInt8] {
        var head = "GET \(target.isEmpty ? "/" : target) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\n"
        head += "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if !protocols.isEmpty { head += "Sec-WebSocket-Protocol: \(protocols.joined(separator: ", "))\r\n" }
        for (name, value) in fields where !Self.handshakeFieldNames.contains(name.lowercased()) {
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// Header fields the handshake sets itself: a caller's own would break it.
    static let handshakeFieldNames: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol",
        "sec-websocket-extensions", "content-length", "transfer-encoding",
    ]

    /// `Sec-WebSocket-Accept` for `key`: base64 of the SHA-1 of the key and the protocol's GUID (§4.2.2).
    public static func acceptValue(for key: String) -> String {
        Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// Checks the server's answer (§4.1, the client's checks 1–6) and returns the protocol it chose, if any.
    /// - Throws: `WebSocketHandshakeError` naming the first check that failed.
    public func validate(_ response: HTTPResponseHead) throws(WebSocketHandshakeError) -> String? {
        guard response.statusCode == 101 else { throw .notUpgraded(statusCode: response.statusCode) }
        guard response.value(of: "Upgrade")?.lowercased() == "websocket" else { throw .missingField("Upgrade") }
        guard response.tokens(of: "Connection").contains("upgrade") else { throw .missingField("Connection") }
        guard response.value(of: "Sec-WebSocket-Accept") == Self.acceptValue(for: key) else {
            throw .missingField("Sec-WebSocket-Accept")
        }
        // No extension is offered, so none may be answered (§4.1 check 5).
        if let extensions = response.value(of: "Sec-WebSocket-Extensions"), !extensions.isEmpty {
            throw .unexpectedField("Sec-WebSocket-Extensions")
        }
        guard let chosen = response.value(of: "Sec-WebSocket-Protocol") else { return nil }
        guard protocols.contains(chosen) else { throw .unexpectedField("Sec-WebSocket-Protocol") }
        return chosen
    }
}

/// Why the server's answer does not open a WebSocket connection.
public enum WebSocketHandshakeError: Error, Sendable, Equatable {
    /// Any status but 101 (the response is the task's, as URLSession shows it).
    case notUpgraded(statusCode: Int)
    /// A field the upgrade needs is absent or wrong.
    case missingField(String)
    /// A field names what was not offered (an extension, a subprotocol).
    case unexpectedField(String)
    /// The answer is not an HTTP/1.1 response head, or is larger than the limit.
    case malformedResponse
}
