internal import CCurl

/// Wraps `CURLM *`: the set of running transfers of one loop (an engine loop, or the webhook sender's).
///
/// `@unchecked Sendable`: off the loop thread only `wakeUp()` is called (`curl_multi_wakeup` is thread-safe);
/// everything else happens on the loop thread that owns the handle.
public final class CurlMultiHandle: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
    /// The easy handles in the multi, by their C pointer (what `curl_multi_info_read` names).
    private var members: [UnsafeMutableRawPointer: CurlEasyHandle] = [:]
    private var isClosed = false

    init() throws(CurlError) {
        _ = CurlGlobal.initialized
        guard let raw = curl_multi_init() else { throw CurlError(multi: CURLM_OUT_OF_MEMORY) }
        self.raw = raw
    }

    /// `CURLMOPT_MAXCONNECTS`: connections kept open for reuse.
    public func setMaximumCachedConnections(_ count: Int) throws(CurlError) {
        try CurlError.check(ccurl_multi_setopt_long(raw, CURLMOPT_MAXCONNECTS, count))
    }

    /// `CURLMOPT_MAX_TOTAL_CONNECTIONS`: open connections at once (0: no limit).
    public func setMaximumTotalConnections(_ count: Int) throws(CurlError) {
        try CurlError.check(ccurl_multi_setopt_long(raw, CURLMOPT_MAX_TOTAL_CONNECTIONS, count))
    }

    /// Wraps `curl_multi_add_handle`.
    public func add(_ easy: CurlEasyHandle) throws(CurlError) {
        try CurlError.check(curl_multi_add_handle(raw, easy.raw))
        members[easy.raw] = easy
        easy.isInMulti = true
    }

    /// Wraps `curl_multi_remove_handle`. Must run before the easy handle is released (STYLE.md §3).
    public func remove(_ easy: CurlEasyHandle) {
        guard members.removeValue(forKey: easy.raw) != nil else { return }
        _ = curl_multi_remove_handle(raw, easy.raw)
        easy.connectionSocket = nil  // the connection is the pool's again (or closed)
        easy.isInMulti = false
    }

    /// Wraps `curl_multi_perform`; returns the number of running transfers.
    func perform() throws(CurlError) -> Int {
        var running: Int32 = 0
        try CurlError.check(curl_multi_perform(raw, &running))
        return Int(running)
    }

    /// Wraps `curl_multi_poll`: waits for activity, a timeout, or `wakeUp()`.
    func poll(timeoutMilliseconds: Int32) throws(CurlError) {
        var ready: Int32 = 0
        try CurlError.check(curl_multi_poll(raw, nil, 0, timeoutMilliseconds, &ready))
    }

    /// Wraps `curl_multi_wakeup`: the only call that is safe from any thread.
    func wakeUp() {
        _ = curl_multi_wakeup(raw)
    }

    /// Transfers that ended since the last call, each with its result. They are still in the multi.
    func endedTransfers() -> [(easy: CurlEasyHandle, result: CurlResult)] {
        var ended: [(CurlEasyHandle, CurlResult)] = []
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(raw, &remaining) {
            if message.pointee.msg == CURLMSG_DONE, let pointer = message.pointee.easy_handle, let easy = members[pointer] {
                ended.append((easy, CurlResult(message.pointee.data.result)))
            }
        }
        return ended
    }

    /// Wraps `curl_multi_cleanup` after removing what is left. Easy handles may be released after this.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for easy in members.values { _ = curl_multi_remove_handle(raw, easy.raw) }
        members.removeAll()
        curl_multi_cleanup(raw)
    }

    deinit { assert(isClosed, "CurlMultiHandle released without close()") }
}
