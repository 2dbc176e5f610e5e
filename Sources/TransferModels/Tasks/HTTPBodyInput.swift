public import Foundation
public import JSONCodec

/// A body as a client sends it (`request.httpBody`, `uploadSource.data`): exactly one of
/// `{"text": "..."}` (sent as UTF-8), `{"base64": "..."}` (the decoded bytes) or `{"json": <any value>}`
/// (serialized as written: member order and number literals kept).
public struct HTTPBodyInput: Decodable, Sendable, Hashable {
    /// Which of the three forms the client chose.
    public enum Form: Sendable, Hashable {
        case text(String)
        case base64(String)
        case json(JSONValue)
    }

    public var form: Form

    /// The largest body a request may carry inline (decoded bytes); bigger bodies go through a blob.
    public static let maximumInlineSize = 1 << 20

    public init(_ form: Form) { self.form = form }

    enum CodingKeys: String, CodingKey { case text, base64, json }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // `allKeys` lists the members present, null ones included: `{"json": null}` is a body ("null").
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw RequestDecodingError.invalidValue(
                at: decoder.codingPath, "must have exactly one of \"text\", \"base64\" or \"json\"")
        }
        switch key {
        case .text: form = .text(try container.decode(String.self, forKey: .text))
        case .base64: form = .base64(try container.decode(String.self, forKey: .base64))
        case .json: form = .json(try container.decode(JSONValue.self, forKey: .json))
        }
    }

    /// The bytes to send, checked against `maximumInlineSize`.
    ///
    /// - Parameter field: where the body sits in the request (`request.httpBody`), for error field names.
    public func bytes(field: String) throws(RequestDecodingError) -> Data {
        let data: Data
        switch form {
        case .text(let text): data = Data(text.utf8)
        case .base64(let text): data = try Validate.base64(text, field: "\(field).base64")
        case .json(let value): data = Data(value.serialized())
        }
        guard data.count <= Self.maximumInlineSize else {
            throw .invalidValue(
                field, "must be at most \(Self.maximumInlineSize) bytes inline; upload larger bodies as a blob")
        }
        return data
    }

    /// The `Content-Type` the body implies when the request has none: a `json` body is JSON. The other
    /// forms have no type of their own, so URLSession's default for a typeless body applies at send time.
    public var impliedContentType: String? {
        if case .json = form { return "application/json" }
        return nil
    }
}
