public import Foundation

/// The final response to a ``TestHTTPRequest``: status, header fields in arrival order, body bytes.
public struct TestHTTPResponse: Sendable {
    /// The status code of the last response received (`CURLINFO_RESPONSE_CODE`); interim 1xx are skipped.
    public var status: Int
    /// Header fields of the last response, in order, with names as the server spelled them.
    public var headers: [(name: String, value: String)]
    /// The body bytes, decoded from any transfer encoding but never decompressed.
    public var body: [UInt8]

    /// Creates a response from its parts.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header field `name`, compared case-insensitively (RFC 9110 §5.1).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return self.headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of the header field `name` in arrival order, compared case-insensitively.
    public func headers(named name: String) -> [String] {
        let wanted = name.lowercased()
        return self.headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The body as UTF-8 text; invalid sequences become U+FFFD so diagnostics never fail.
    public var text: String {
        String(decoding: self.body, as: UTF8.self)
    }

    /// The body parsed as a JSON object.
    ///
    /// - Throws: ``ResponseBodyError`` when the body is not JSON or its top level is not an object.
    public func json() throws -> [String: Any] {
        guard let object = try self.parseJSON() as? [String: Any] else {
            throw ResponseBodyError(expected: "a JSON object", response: self)
        }
        return object
    }

    /// The body parsed as a JSON array.
    ///
    /// - Throws: ``ResponseBodyError`` when the body is not JSON or its top level is not an array.
    public func jsonArray() throws -> [Any] {
        guard let array = try self.parseJSON() as? [Any] else {
            throw ResponseBodyError(expected: "a JSON array", response: self)
        }
        return array
    }

    /// The body decoded as `type` with `decoder`.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: Data(self.body))
    }

    private func parseJSON() throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: Data(self.body), options: [.fragmentsAllowed])
        } catch {
            throw ResponseBodyError(expected: "JSON", response: self)
        }
    }
}

/// A response body did not have the shape a test asked for. The description quotes the start of the body.
public struct ResponseBodyError: Error, CustomStringConvertible {
    /// What the caller expected, e.g. "a JSON object".
    public let expected: String
    /// The status of the response whose body was rejected.
    public let status: Int
    /// At most the first 500 characters of the body, for the failure message.
    public let bodyPrefix: String

    init(expected: String, response: TestHTTPResponse) {
        self.expected = expected
        self.status = response.status
        self.bodyPrefix = String(response.text.prefix(500))
    }

    public var description: String {
        "expected \(self.expected) in the body of a \(self.status) response, got: \(self.bodyPrefix)"
    }
}
