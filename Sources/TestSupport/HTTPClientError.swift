/// A transfer by ``HTTPClient`` failed inside libcurl.
///
/// Carries the raw `CURLcode` and libcurl's own text (`CURLOPT_ERRORBUFFER`, or `curl_easy_strerror`
/// when the buffer is empty), like the service's `CurlError` (STYLE.md §5).
/// See https://curl.se/libcurl/c/libcurl-errors.html.
public struct HTTPClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `CURLcode`, e.g. 7 (`CURLE_COULDNT_CONNECT`) or 28 (`CURLE_OPERATION_TIMEDOUT`).
    public let code: Int
    /// libcurl's message for this failure.
    public let message: String

    /// Creates an error from a raw `CURLcode` and its message.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    /// `CURLE_COULDNT_CONNECT`: nothing listened, or the connection was refused.
    public var isConnectFailure: Bool { self.code == 7 }
    /// `CURLE_OPERATION_TIMEDOUT`: the request's `timeout` elapsed.
    public var isTimeout: Bool { self.code == 28 }
    /// `CURLE_GOT_NOTHING` or `CURLE_RECV_ERROR`: the server closed or reset without a complete response.
    public var isConnectionDropped: Bool { self.code == 52 || self.code == 56 }

    public var description: String {
        "HTTPClientError(CURLcode \(self.code)): \(self.message)"
    }
}

/// A POSIX socket call made by ``HTTPClient/sendRaw(host:port:bytes:timeout:halfClose:)`` failed.
public struct RawSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The failing call, e.g. `connect` or `getaddrinfo`.
    public let operation: String
    /// `errno` (or the `getaddrinfo` code) at the time of the failure.
    public let code: Int32
    /// The system's text for `code`.
    public let message: String

    /// Creates an error from the failing call and its error number.
    public init(operation: String, code: Int32, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    public var description: String {
        "RawSocketError(\(self.operation), \(self.code)): \(self.message)"
    }
}
