import Foundation
public import JSONCodec

/// `GET /v1/tasks/{id}/read`: what `readData(ofMinLength:maxLength:timeout:)` hands its completion handler —
/// the bytes (base64, possibly none), whether the read side ended with them, and the error (a timeout's
/// -1001, with no bytes consumed), null when there was none. Every field is written.
public struct StreamReadAnswer: Encodable, Sendable, Hashable {
    public var data: [UInt8]
    public var atEOF: Bool
    public var error: TransferError?

    public init(data: [UInt8], atEOF: Bool, error: TransferError? = nil) {
        (self.data, self.atEOF, self.error) = (data, atEOF, error)
    }

    enum CodingKeys: String, CodingKey { case data, atEOF, error }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Data(data).base64EncodedString(), forKey: .data)
        try c.encode(atEOF, forKey: .atEOF)
        try c.encode(error.map(TransferErrorWire.init), forKey: .error)
    }
}

/// `POST /v1/tasks/{id}/write`: what `write(_:timeout:)` hands its completion handler — null once every
/// byte is written, else the error (a timeout's -1001). Every field is written.
public struct StreamWriteAnswer: Encodable, Sendable, Hashable {
    public var error: TransferError?

    public init(error: TransferError? = nil) { self.error = error }

    enum CodingKeys: String, CodingKey { case error }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(error.map(TransferErrorWire.init), forKey: .error)
    }
}

/// The JSON body of `POST /v1/tasks/{id}/write`: `write(_:timeout:)`'s bytes (standard base64) and timeout.
public struct StreamWriteRequest: Decodable, Sendable, Hashable {
    public var data: String?
    public var timeout: Double?

    /// The bytes, or a 422 naming `data`.
    public func bytes() throws(RequestDecodingError) -> [UInt8] {
        guard let data else { throw .missingField("data") }
        return Array(try Validate.base64(data, field: "data"))
    }
}
