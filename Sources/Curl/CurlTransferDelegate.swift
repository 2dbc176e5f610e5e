internal import CCurl
import Foundation

/// What a transfer on a `CurlEasyHandle` hears from libcurl, on the loop thread that owns the handle.
/// Each method stays short: it appends bytes, updates counters, or queues an event.
public protocol CurlTransferDelegate: AnyObject {
    /// One response header line, CRLF included (`CURLOPT_HEADERFUNCTION`).
    func curlDidReceiveHeaderLine(_ line: UnsafeRawBufferPointer)
    /// Body bytes, decoded (`CURLOPT_WRITEFUNCTION`).
    func curlDidReceiveBody(_ bytes: UnsafeRawBufferPointer) -> CurlBodyVerdict
    /// Fills `buffer` with the next bytes of the request body; nil aborts the transfer
    /// (`CURLOPT_READFUNCTION`).
    func curlReadBody(into buffer: UnsafeMutableRawBufferPointer) -> Int?
    /// Rewinds the request body to `offset` (authentication, retries on a reused connection); false if
    /// it cannot (`CURLOPT_SEEKFUNCTION`).
    func curlRewindBody(to offset: Int64) -> Bool
    /// Bytes of the request body sent so far, at least once a second while the transfer runs
    /// (`CURLOPT_XFERINFOFUNCTION`); false aborts the transfer.
    func curlProgress(totalBytesSent: Int64) -> Bool
    /// The connection is ready and the request is about to be sent (`CURLOPT_PREREQFUNCTION`): a new
    /// one, or one reused; `tlsSession` is its OpenSSL `SSL *` over https. false aborts the transfer
    /// (`CURLE_ABORTED_BY_CALLBACK`) before any byte of the request leaves.
    func curlConnectionReady(isNew: Bool, tlsSession: UnsafeMutableRawPointer?) -> Bool
    /// The server asked for a client certificate during this handshake (`CertificateRequest`).
    func curlServerRequestedClientCertificate()
}

extension CurlTransferDelegate {
    public func curlReadBody(into buffer: UnsafeMutableRawBufferPointer) -> Int? { nil }
    public func curlRewindBody(to offset: Int64) -> Bool { false }
    public func curlProgress(totalBytesSent: Int64) -> Bool { true }
    public func curlConnectionReady(isNew: Bool, tlsSession: UnsafeMutableRawPointer?) -> Bool { true }
    public func curlServerRequestedClientCertificate() {}
}

/// What the write callback tells libcurl about body bytes.
public enum CurlBodyVerdict: Sendable {
    /// Kept.
    case accepted
    /// Not now: libcurl pauses the transfer and offers the same bytes again after `unpause()`.
    case pause
    /// Fails the transfer (`CURLE_WRITE_ERROR`).
    case failed
}

/// What `curlReadBody` may answer besides a count.
public enum CurlReadVerdict {
    /// Nothing now: libcurl pauses the transfer's sending until `unpause()` (`CURL_READFUNC_PAUSE`).
    public static let pause = Int(ccurl_read_func_pause())
}

/// Which callbacks a transfer needs (each one libcurl calls costs a little on every chunk).
public struct CurlCallbacks: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Headers and body.
    public static let response = CurlCallbacks(rawValue: 1)
    /// Reading and rewinding the request body.
    public static let requestBody = CurlCallbacks(rawValue: 2)
    /// Upload progress.
    public static let progress = CurlCallbacks(rawValue: 4)
    /// The connection before the request is sent (`curlConnectionReady`).
    public static let connectionReady = CurlCallbacks(rawValue: 8)
    /// The TLS handshake's messages (`curlServerRequestedClientCertificate`): libcurl's trace, which
    /// costs a call per TLS record, so only for transfers that must know.
    public static let handshakeMessages = CurlCallbacks(rawValue: 16)
}

extension CurlEasyHandle {
    /// Routes libcurl's callbacks for this handle to `delegate`.
    public func installCallbacks(_ callbacks: CurlCallbacks) throws(CurlError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        if callbacks.contains(.response) {
            try setPointer(CURLOPT_WRITEDATA, context)
            try CurlError.check(ccurl_easy_setopt_write_function(raw, curlWriteCallback))
            try setPointer(CURLOPT_HEADERDATA, context)
            try CurlError.check(ccurl_easy_setopt_header_function(raw, curlHeaderCallback))
        }
        if callbacks.contains(.requestBody) {
            try setPointer(CURLOPT_READDATA, context)
            try CurlError.check(ccurl_easy_setopt_read_function(raw, curlReadCallback))
            try setPointer(CURLOPT_SEEKDATA, context)
            try CurlError.check(ccurl_easy_setopt_seek_function(raw, curlSeekCallback))
        }
        if callbacks.contains(.progress) {
            try setPointer(CURLOPT_XFERINFODATA, context)
            try CurlError.check(ccurl_easy_setopt_xferinfo_function(raw, curlProgressCallback))
            try setLong(CURLOPT_NOPROGRESS, 0)
        }
        if callbacks.contains(.connectionReady) {
            asksWhenConnectionReady = true
            try installPrerequestCallback()
        }
        if callbacks.contains(.handshakeMessages) {
            try setPointer(CURLOPT_DEBUGDATA, context)
            try CurlError.check(ccurl_easy_setopt_debug_function(raw, curlDebugCallback))
            try setLong(CURLOPT_VERBOSE, 1)
        }
    }
}

// The C callbacks. They capture nothing (converting a capturing closure to @convention(c) crashes swiftc
// 6.3.1), and get the handle back from their userdata; the loop that runs the handle keeps it alive.

private func handle(_ userdata: UnsafeMutableRawPointer?) -> CurlEasyHandle? {
    userdata.map { Unmanaged<CurlEasyHandle>.fromOpaque($0).takeUnretainedValue() }
}

private let curlWriteCallback: curl_write_callback = { data, size, count, userdata in
    let length = size * count
    guard let delegate = handle(userdata)?.delegate, let data else { return 0 }
    switch delegate.curlDidReceiveBody(UnsafeRawBufferPointer(start: data, count: length)) {
    case .accepted: return length
    case .pause: return ccurl_write_func_pause()
    case .failed: return 0
    }
}

private let curlHeaderCallback: curl_write_callback = { data, size, count, userdata in
    let length = size * count
    guard let delegate = handle(userdata)?.delegate, let data else { return 0 }
    delegate.curlDidReceiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
    return length
}

private let curlReadCallback: curl_read_callback = { buffer, size, count, userdata in
    guard let delegate = handle(userdata)?.delegate, let buffer,
        let read = delegate.curlReadBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
    else { return ccurl_read_func_abort() }
    return read
}

private let curlSeekCallback: curl_seek_callback = { userdata, offset, origin in
    guard origin == SEEK_SET, let delegate = handle(userdata)?.delegate, delegate.curlRewindBody(to: Int64(offset)) else {
        return Int32(CURL_SEEKFUNC_CANTSEEK)
    }
    return Int32(CURL_SEEKFUNC_OK)
}

private let curlProgressCallback: curl_xferinfo_callback = { userdata, _, _, _, uploadNow in
    let goOn = handle(userdata)?.delegate?.curlProgress(totalBytesSent: Int64(uploadNow)) ?? true
    return goOn ? 0 : 1
}

extension CurlEasyHandle {
    /// `CURLOPT_PREREQFUNCTION`: the connection, new or reused, right before the request is sent — its
    /// receive bound (`setReceiveBufferLimit`), then the delegate (`.connectionReady`).
    func installPrerequestCallback() throws(CurlError) {
        try setPointer(CURLOPT_PREREQDATA, Unmanaged.passUnretained(self).toOpaque())
        try CurlError.check(ccurl_easy_setopt_prereq_function(raw, curlPrereqCallback))
    }
}

private let curlPrereqCallback: curl_prereq_callback = { userdata, remoteAddress, localAddress, remotePort, localPort in
    guard let handle = handle(userdata) else { return ccurl_prereq_func_ok() }
    // A request that wants no bound, while no socket holds one, has nothing to set (and takes no lock).
    if handle.receiveBufferLimit != nil || ConnectionSockets.anySocketBounded, let remoteAddress, let localAddress {
        let ends = ConnectionSockets.Endpoints(
            localAddress: String(cString: localAddress), localPort: Int(localPort),
            remoteAddress: String(cString: remoteAddress), remotePort: Int(remotePort))
        handle.connectionSocket = ConnectionSockets.take(ends, bound: handle.receiveBufferLimit)
    }
    guard handle.asksWhenConnectionReady, let delegate = handle.delegate else { return ccurl_prereq_func_ok() }
    let isNew = handle.info(.newConnections) > 0
    return delegate.curlConnectionReady(isNew: isNew, tlsSession: handle.tlsSession) ? ccurl_prereq_func_ok() : ccurl_prereq_func_abort()
}

/// libcurl's OpenSSL backend traces each handshake message as text; a server's `CertificateRequest`
/// reads "TLSv1.3 (IN), TLS handshake, Request CERT (13):". The trace is the only place libcurl says it.
private let curlDebugCallback: curl_debug_callback = { _, type, data, size, userdata in
    guard type == CURLINFO_TEXT, let data, size >= 12, size < 256 else { return 0 }
    let text = UnsafeRawBufferPointer(start: data, count: size)
    if text.firstRange(of: Array("Request CERT".utf8)) != nil {
        handle(userdata)?.delegate?.curlServerRequestedClientCertificate()
    }
    return 0
}
