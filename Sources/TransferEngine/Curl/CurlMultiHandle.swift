package import CCurl

/// Wraps `CURLM *`: the set of running transfers of one loop (an engine loop, or the webhook dispatcher's).
///
/// `@unchecked Sendable`: off the loop thread only `wakeUp()` is called (`curl_multi_wakeup` is thread-safe);
/// everything else happens on the loop thread that owns the handle.
package final class CurlMultiHandle: @unchecked Sendable {
    package let raw: UnsafeMutableRawPointer
    private var isClosed = false

    package init() throws(CurlError) {
        _ = CurlGlobal.initialized
        guard let raw = curl_multi_init() else { throw CurlError(multi: CURLM_OUT_OF_MEMORY) }
        self.raw = raw
    }

    /// Wraps `curl_multi_setopt` for long options (`CURLMOPT_MAX_TOTAL_CONNECTIONS`, ...).
    package func set(_ option: CURLMoption, _ value: Int) throws(CurlError) {
        try CurlError.check(ccurl_multi_setopt_long(raw, option, value))
    }

    package func add(_ easy: CurlEasyHandle) throws(CurlError) {
        try CurlError.check(curl_multi_add_handle(raw, easy.raw))
    }

    /// Must run before the easy handle is released (STYLE.md §3 ordering rule).
    package func remove(_ easy: CurlEasyHandle) {
        _ = curl_multi_remove_handle(raw, easy.raw)
    }

    /// Wraps `curl_multi_perform`; returns the number of running transfers.
    package func perform() throws(CurlError) -> Int {
        var running: Int32 = 0
        try CurlError.check(curl_multi_perform(raw, &running))
        return Int(running)
    }

    /// Wraps `curl_multi_poll`: waits for activity, a timeout, or `wakeUp()`.
    package func poll(timeoutMilliseconds: Int32) throws(CurlError) {
        var ready: Int32 = 0
        try CurlError.check(curl_multi_poll(raw, nil, 0, timeoutMilliseconds, &ready))
    }

    /// Wraps `curl_multi_wakeup`: the only call that is safe from any thread.
    package func wakeUp() {
        _ = curl_multi_wakeup(raw)
    }

    /// Finished transfers since the last call: the easy handle and its result.
    package func completedTransfers() -> [(easy: UnsafeMutableRawPointer, result: CURLcode)] {
        var finished: [(UnsafeMutableRawPointer, CURLcode)] = []
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(raw, &remaining) {
            if message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle {
                finished.append((easy, message.pointee.data.result))
            }
        }
        return finished
    }

    /// Wraps `curl_multi_cleanup`. Every easy handle must have been removed and released first.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        curl_multi_cleanup(raw)
    }

    deinit { assert(isClosed, "CurlMultiHandle released without close()") }
}
