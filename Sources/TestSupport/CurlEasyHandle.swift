internal import CCurl

/// Runs `curl_global_init` exactly once per process.
///
/// `curl_global_init` is not thread-safe in libcurl 7.88, and tests start many clients concurrently;
/// a `static let` is initialised under `swift_once`, which makes the first caller run it and the rest wait.
/// See https://curl.se/libcurl/c/curl_global_init.html.
enum CurlGlobal {
    private static let initCode: Int = Int(curl_global_init(Int(CURL_GLOBAL_DEFAULT)).rawValue)

    /// Initialises libcurl if no one has yet, and reports a failure of that one call.
    static func ensureInitialized() throws(HTTPClientError) {
        let code = Self.initCode
        guard code == 0 else {
            throw HTTPClientError(code: code, message: "curl_global_init failed")
        }
    }
}

/// Owns one libcurl easy handle (`CURL *`) for one transfer.
///
/// Wraps `curl_easy_init`/`curl_easy_cleanup` (https://curl.se/libcurl/c/curl_easy_init.html).
/// Cleanup cannot fail and has no ordering rule here (the handle never joins a multi), so it lives in `deinit`.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer

    init() throws(HTTPClientError) {
        try CurlGlobal.ensureInitialized()
        guard let raw = curl_easy_init() else {
            throw HTTPClientError(code: Int(CURLE_FAILED_INIT.rawValue), message: "curl_easy_init returned NULL")
        }
        self.raw = raw
    }

    deinit {
        curl_easy_cleanup(self.raw)
    }

    /// Wraps `curl_easy_setopt` for options taking a `long` (https://curl.se/libcurl/c/curl_easy_setopt.html).
    func set(_ option: CURLoption, _ value: Int) throws(HTTPClientError) {
        try Self.check(ccurl_easy_setopt_long(self.raw, option, value), option)
    }

    /// Wraps `curl_easy_setopt` for options taking a C string; libcurl copies it (except `CURLOPT_POSTFIELDS`,
    /// which this type never sets).
    func set(_ option: CURLoption, _ value: String) throws(HTTPClientError) {
        let code = value.withCString { ccurl_easy_setopt_string(self.raw, option, $0) }
        try Self.check(code, option)
    }

    /// Wraps `curl_easy_setopt` for options taking a `curl_off_t`.
    func set(_ option: CURLoption, offset value: Int64) throws(HTTPClientError) {
        try Self.check(ccurl_easy_setopt_off_t(self.raw, option, curl_off_t(value)), option)
    }

    /// Wraps `curl_easy_setopt` for options taking a pointer the caller keeps alive for the transfer.
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(HTTPClientError) {
        try Self.check(ccurl_easy_setopt_pointer(self.raw, option, pointer), option)
    }

    /// Wraps `CURLOPT_COPYPOSTFIELDS`: libcurl copies the bytes, so `body` need not outlive the call.
    /// Set `CURLOPT_POSTFIELDSIZE_LARGE` first, or libcurl measures the body with `strlen`.
    func copyPostFields(_ body: [UInt8]) throws(HTTPClientError) {
        let code: CURLcode
        if body.isEmpty {
            // An empty array may have no base address; libcurl still needs a non-NULL pointer.
            code = ccurl_easy_setopt_string(self.raw, CURLOPT_COPYPOSTFIELDS, "")
        } else {
            code = body.withUnsafeBytes { bytes in
                let pointer = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
                return ccurl_easy_setopt_pointer(self.raw, CURLOPT_COPYPOSTFIELDS, pointer)
            }
        }
        try Self.check(code, CURLOPT_COPYPOSTFIELDS)
    }

    /// Wraps `CURLOPT_HTTPHEADER`; `list` must outlive the transfer.
    func set(headers list: CurlHeaderList) throws(HTTPClientError) {
        try Self.check(ccurl_easy_setopt_slist(self.raw, CURLOPT_HTTPHEADER, list.raw), CURLOPT_HTTPHEADER)
    }

    /// Wraps `curl_easy_getinfo` for `long` results, e.g. `CURLINFO_RESPONSE_CODE`.
    func info(_ info: CURLINFO) -> Int {
        var value = 0
        _ = ccurl_easy_getinfo_long(self.raw, info, &value)
        return value
    }

    static func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPClientError) {
        guard code != CURLE_OK else { return }
        throw HTTPClientError(
            code: Int(code.rawValue),
            message: "curl_easy_setopt(\(option.rawValue)): \(Self.describe(code))")
    }

    /// Wraps `curl_easy_strerror`.
    static func describe(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}

// One transfer thread owns the handle from init to cleanup.
@available(*, unavailable)
extension CurlEasyHandle: Sendable {}

/// Owns a `struct curl_slist` of request header lines.
///
/// Wraps `curl_slist_append`/`curl_slist_free_all` (https://curl.se/libcurl/c/curl_slist_append.html).
final class CurlHeaderList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    init() {}

    deinit {
        curl_slist_free_all(self.raw)
    }

    /// Appends one raw header line, e.g. `Accept: text/plain`, `X-Empty;` or `Expect:` (removes a default).
    func append(_ line: String) throws(HTTPClientError) {
        guard let next = curl_slist_append(self.raw, line) else {
            throw HTTPClientError(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "curl_slist_append failed")
        }
        self.raw = next
    }
}

@available(*, unavailable)
extension CurlHeaderList: Sendable {}
