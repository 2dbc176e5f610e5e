internal import CCurl

/// A connection that libcurl opens and then hands over (`CURLOPT_CONNECT_ONLY`): name resolution, the
/// egress guard, a proxy's tunnel, the interface binding and TLS with the handle's trust settings are
/// libcurl's, as for any transfer; then the caller moves bytes both ways itself (`curl_easy_send`,
/// `curl_easy_recv`), e.g. a WebSocket's frames, which this libcurl cannot speak.
///
/// Non-blocking after `connect()`: `send` and `receive` answer nil when the socket is not ready, and the
/// caller waits for `socket` to be (`poll`). Confined to one thread at a time, as its handle is.
public final class CurlConnection {
    public let handle: CurlEasyHandle

    /// `handle` carries the transfer's options (URL with an `http`/`https` scheme, proxy, TLS, baseline).
    public init(handle: CurlEasyHandle) {
        self.handle = handle
    }

    /// Connects, blocking the calling thread until the connection (and its TLS and any proxy tunnel) is up
    /// or fails; the handle's connect timeout applies.
    public func connect() -> CurlResult {
        do {
            try handle.setLong(CURLOPT_CONNECT_ONLY, 1)
            // ALPN offers http/1.1 only: the bytes that follow are an HTTP/1.1 exchange (a WebSocket's
            // upgrade); a server that chose h2 would read them as a broken HTTP/2 preface.
            try handle.setLong(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
            // Through an HTTP proxy the bytes that follow are the caller's own (a WebSocket handshake), so the
            // proxy must tunnel them (CONNECT) rather than expect a request of its own; without a proxy it
            // changes nothing.
            try handle.setLong(CURLOPT_HTTPPROXYTUNNEL, 1)
        } catch {
            return CurlResult(code: error.code)
        }
        return handle.perform()
    }

    /// The connected socket, for `poll`; nil before `connect()` succeeded or after the peer closed.
    public var socket: Int32? {
        var socket: curl_socket_t = CURL_SOCKET_BAD
        guard ccurl_easy_getinfo_socket(handle.raw, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket != CURL_SOCKET_BAD else {
            return nil
        }
        return socket
    }

    /// Sends what it can of `bytes` now: how many it took, or nil when the socket takes none now.
    /// - Throws: `CurlError` when the connection failed (reset, TLS error).
    public func send(_ bytes: UnsafeRawBufferPointer) throws(CurlError) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        var sent = 0
        let code = curl_easy_send(handle.raw, base, bytes.count, &sent)
        if code == CURLE_AGAIN { return nil }
        try CurlError.check(code)
        return sent
    }

    /// Reads what has arrived into `buffer`: how many bytes (0: the peer closed the connection), or nil
    /// when nothing is there now.
    /// - Throws: `CurlError` when the connection failed.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(CurlError) -> Int? {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        var received = 0
        let code = curl_easy_recv(handle.raw, base, buffer.count, &received)
        if code == CURLE_AGAIN { return nil }
        try CurlError.check(code)
        return received
    }
}

@available(*, unavailable) extension CurlConnection: Sendable {}
