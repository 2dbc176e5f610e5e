internal import CCurl

/// A libcurl failure: the raw code and curl's own text for it.
public struct CurlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `CURLcode` (easy), `CURLMcode` (multi) or `CURLSHcode` (share) value.
    public let code: Int
    public let message: String
    /// Which interface failed: `easy`, `multi` or `share`.
    public let interface: String

    public var description: String { "libcurl \(interface) error \(code): \(message)" }

    /// An easy-interface failure with this code (a transfer's `CurlResult`).
    public init(_ result: CurlResult, message: String) {
        self.code = result.code
        self.message = message
        self.interface = "easy"
    }

    init(easy code: CURLcode, message: String? = nil) {
        self.code = Int(code.rawValue)
        self.message = message ?? String(cString: curl_easy_strerror(code))
        self.interface = "easy"
    }

    init(multi code: CURLMcode) {
        self.code = Int(code.rawValue)
        self.message = String(cString: curl_multi_strerror(code))
        self.interface = "multi"
    }

    init(share code: CURLSHcode) {
        self.code = Int(code.rawValue)
        self.message = String(cString: curl_share_strerror(code))
        self.interface = "share"
    }

    static func check(_ code: CURLcode) throws(CurlError) {
        guard code == CURLE_OK else { throw CurlError(easy: code) }
    }

    static func check(_ code: CURLMcode) throws(CurlError) {
        guard code == CURLM_OK else { throw CurlError(multi: code) }
    }

    static func check(_ code: CURLSHcode) throws(CurlError) {
        guard code == CURLSHE_OK else { throw CurlError(share: code) }
    }
}

/// `curl_global_init`, once per process, before any handle exists.
enum CurlGlobal {
    static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// How a transfer ended: a `CURLcode` (0 is success).
public struct CurlResult: Hashable, Sendable {
    public let code: Int

    public init(code: Int) { self.code = code }
    init(_ code: CURLcode) { self.code = Int(code.rawValue) }

    public var isSuccess: Bool { code == 0 }

    /// `CURLE_OK`
    public static let ok = CurlResult(code: 0)
    /// `CURLE_COULDNT_CONNECT`: also what a socket refused by the egress policy ends with.
    public static let couldNotConnect = CurlResult(CURLE_COULDNT_CONNECT)
    /// `CURLE_WRITE_ERROR`: the body's receiver refused bytes.
    public static let writeError = CurlResult(CURLE_WRITE_ERROR)
}
