package import CCurl
import Foundation

/// Wraps `CURL *`: one transfer's options, callbacks and results. Confined to the loop thread that owns it
/// (an engine loop, or the webhook dispatcher's loop: `package` so EventDelivery shares the wrapper).
///
/// Strings given to `set` are copied by libcurl (since 7.17); header lists are kept alive here until the
/// handle is reset or released, because libcurl only borrows them.
package final class CurlEasyHandle {
    package let raw: UnsafeMutableRawPointer
    private var lists: [CURLoption: CurlStringList] = [:]
    /// Filled by libcurl with the text of the last failure (`CURLOPT_ERRORBUFFER`).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    package init() throws(CurlError) {
        _ = CurlGlobal.initialized
        guard let raw = curl_easy_init() else { throw CurlError(easy: CURLE_FAILED_INIT) }
        self.raw = raw
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// Wraps `curl_easy_reset`: back to defaults for reuse (connections and caches stay in the multi/share).
    package func reset() throws(CurlError) {
        curl_easy_reset(raw)
        lists.removeAll()
        errorBuffer[0] = 0
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    /// The error buffer's text, or curl's generic text for `code`.
    package func errorMessage(for code: CURLcode) -> String {
        errorBuffer[0] == 0 ? String(cString: curl_easy_strerror(code)) : String(cString: errorBuffer)
    }

    // MARK: Options (curl_easy_setopt)

    package func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_long(raw, option, value))
    }

    package func set(_ option: CURLoption, _ value: Bool) throws(CurlError) {
        try set(option, value ? 1 : 0)
    }

    package func set(_ option: CURLoption, offset value: Int64) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_off_t(raw, option, curl_off_t(value)))
    }

    package func set(_ option: CURLoption, _ value: String?) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_string(raw, option, value))
    }

    package func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_pointer(raw, option, value))
    }

    /// Sets a list option (`CURLOPT_HTTPHEADER`, `CURLOPT_RESOLVE`...) and keeps the list alive.
    package func set(_ option: CURLoption, list strings: [String]) throws(CurlError) {
        let list = CurlStringList(strings)
        try CurlError.check(ccurl_easy_setopt_slist(raw, option, list.raw))
        lists[option] = list
    }

    // MARK: Results (curl_easy_getinfo)

    package func info(_ item: CURLINFO) -> Int {
        var value = 0
        return ccurl_easy_getinfo_long(raw, item, &value) == CURLE_OK ? value : 0
    }

    package func info(offset item: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return ccurl_easy_getinfo_off_t(raw, item, &value) == CURLE_OK ? Int64(value) : -1
    }

    package func info(string item: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(raw, item, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}

@available(*, unavailable) extension CurlEasyHandle: Sendable {}
