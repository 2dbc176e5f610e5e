import Foundation
import JSONCodec
import TransferModels

/// An answer to send: status, headers and a body in memory, from a file, or produced as it is sent.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// `length` bytes of an open file from `offset` (sent with sendfile). The handler opens the file, so
        /// one removed before the answer is queued is still sent; see ``ResponseFile``.
        case file(ResponseFile, offset: UInt64, length: UInt64)
        /// Bytes produced while the answer is sent: of unknown length (chunked), such as server-sent events,
        /// or of the stream's `length` (a file read from the object store).
        case stream(ResponseStream)
        /// A 101: no body; once it is sent the connection is handed over (a WebSocket relay).
        case upgrade(ConnectionUpgrade)
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// JSON already encoded (`application/json`), e.g. kept by a read cache.
    public static func encodedJSON(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(bytes))
    }

    /// A JSON answer (`application/json`).
    public static func json<T: Encodable>(_ value: T, status: Int = 200, headers: [(name: String, value: String)] = []) throws
        -> HTTPResponse
    {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")] + headers, body: .bytes(try WireJSON.encode(value)))
    }

    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8", status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(text.utf8)))
    }

    public static let noContent = HTTPResponse(status: 204)

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The bytes of an in-memory body.
    public var bodyBytes: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }
}
