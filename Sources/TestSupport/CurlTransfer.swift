internal import CCurl

/// Lets the awaiting task cancel a transfer running on another thread.
///
/// The transfer thread polls `isCancelled` from its write and progress callbacks; libcurl calls the progress
/// callback at least once a second even while idle, so cancellation lands within about a second.
final class TransferControl: Sendable {
    private let cancelled = Locked(false)

    func cancel() {
        self.cancelled.withLock { $0 = true }
    }

    var isCancelled: Bool {
        self.cancelled.withLock { $0 }
    }
}

/// What one transfer's callbacks write into. Confined to the transfer's thread.
final class TransferSink {
    let control: TransferControl
    let onChunk: (@Sendable ([UInt8]) -> Bool)?
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// Set when `onChunk` returned false, so the resulting `CURLE_WRITE_ERROR` counts as a normal end.
    var stoppedByCaller = false

    init(control: TransferControl, onChunk: (@Sendable ([UInt8]) -> Bool)?) {
        self.control = control
        self.onChunk = onChunk
    }

    /// Receives one body chunk (`CURLOPT_WRITEFUNCTION`); false aborts the transfer.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !self.control.isCancelled else { return false }
        let chunk = Array(bytes)
        self.body.append(contentsOf: chunk)
        if let onChunk = self.onChunk, !onChunk(chunk) {
            self.stoppedByCaller = true
            return false
        }
        return true
    }

    /// Receives one raw header line with its CRLF (`CURLOPT_HEADERFUNCTION`).
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        // Trim CR/LF as bytes: in a String, "\r\n" is one Character and `hasSuffix("\n")` misses it.
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // A new status line starts a new response (after a 1xx); keep only the last one's fields.
            self.headers.removeAll()
        } else if let first = line.first, first == " " || first == "\t", !self.headers.isEmpty {
            // obs-fold (RFC 9112 §5.2): a continuation of the previous field's value.
            self.headers[self.headers.count - 1].value += " " + Self.trimmed(Substring(line))
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            let value = Self.trimmed(line[line.index(after: colon)...])
            self.headers.append((name: name, value: value))
        }
    }

    private static func trimmed(_ text: Substring) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = text.lastIndex(where: { !isSpace($0) }) ?? start
        return String(text[start...end])
    }
}

@available(*, unavailable)
extension TransferSink: Sendable {}

/// One blocking libcurl easy transfer. Runs on a dedicated thread, never on the cooperative pool.
enum CurlTransfer {
    static func perform(
        _ request: TestHTTPRequest, control: TransferControl, onChunk: (@Sendable ([UInt8]) -> Bool)?
    ) -> Result<TestHTTPResponse, any Error> {
        Result { try Self.performThrowing(request, control: control, onChunk: onChunk) }
    }

    private static func performThrowing(
        _ request: TestHTTPRequest, control: TransferControl, onChunk: (@Sendable ([UInt8]) -> Bool)?
    ) throws -> TestHTTPResponse {
        if control.isCancelled { throw CancellationError() }
        let handle = try CurlEasyHandle()
        let sink = TransferSink(control: control, onChunk: onChunk)
        let headerList = CurlHeaderList()
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }

        try Self.configure(handle, for: request, headerList: headerList)
        try handle.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        let code = try withExtendedLifetime(sink) { () throws(HTTPClientError) -> CURLcode in
            try Self.installCallbacks(handle, sink: Unmanaged.passUnretained(sink).toOpaque())
            return curl_easy_perform(handle.raw)
        }

        if control.isCancelled { throw CancellationError() }
        guard code == CURLE_OK || (code == CURLE_WRITE_ERROR && sink.stoppedByCaller) else {
            let buffered = String(cString: errorBuffer)
            throw HTTPClientError(
                code: Int(code.rawValue),
                message: buffered.isEmpty ? CurlEasyHandle.describe(code) : buffered)
        }
        return TestHTTPResponse(status: handle.info(CURLINFO_RESPONSE_CODE), headers: sink.headers, body: sink.body)
    }

    private static func configure(
        _ handle: CurlEasyHandle, for request: TestHTTPRequest, headerList: CurlHeaderList
    ) throws(HTTPClientError) {
        try handle.set(CURLOPT_URL, request.url)
        // Signals would hit whichever test thread runs; timeouts then rely on curl's own clock.
        try handle.set(CURLOPT_NOSIGNAL, 1)
        try handle.set(CURLOPT_TIMEOUT_MS, max(1, Int((request.timeout * 1000).rounded(.up))))
        try handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
        // Tests talk to loopback only; an http_proxy in the environment must never reroute them.
        try handle.set(CURLOPT_NOPROXY, "*")
        // Redirect tests inspect the 3xx itself.
        try handle.set(CURLOPT_FOLLOWLOCATION, 0)

        let method = request.method
        if let body = request.body {
            // The size must be set before COPYPOSTFIELDS so binary bodies with NUL bytes copy whole.
            try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
            try handle.copyPostFields(body)
            if method != "POST" { try handle.set(CURLOPT_CUSTOMREQUEST, method) }
        } else if method == "HEAD" {
            // CUSTOMREQUEST "HEAD" would make curl wait for a body that never comes.
            try handle.set(CURLOPT_NOBODY, 1)
        } else if method != "GET" {
            try handle.set(CURLOPT_CUSTOMREQUEST, method)
        }

        for (name, value) in request.headers {
            // "Name;" is curl's syntax for a field with an empty value; "Name:" would remove it.
            try headerList.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        if request.header("Expect") == nil { try headerList.append("Expect:") }
        if request.body != nil, request.header("Content-Type") == nil { try headerList.append("Content-Type:") }
        try handle.set(headers: headerList)
    }

    /// Installs capture-free C callbacks; each recovers the sink from its userdata pointer.
    private static func installCallbacks(
        _ handle: CurlEasyHandle, sink: UnsafeMutableRawPointer
    ) throws(HTTPClientError) {
        try handle.set(CURLOPT_WRITEDATA, pointer: sink)
        try CurlEasyHandle.check(
            ccurl_easy_setopt_write_function(handle.raw) { data, size, count, userdata in
                let length = size * count
                guard let userdata else { return 0 }
                let sink = Unmanaged<TransferSink>.fromOpaque(userdata).takeUnretainedValue()
                return sink.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
            }, CURLOPT_WRITEFUNCTION)

        try handle.set(CURLOPT_HEADERDATA, pointer: sink)
        try CurlEasyHandle.check(
            ccurl_easy_setopt_header_function(handle.raw) { data, size, count, userdata in
                let length = size * count
                guard let userdata else { return 0 }
                let sink = Unmanaged<TransferSink>.fromOpaque(userdata).takeUnretainedValue()
                sink.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
                return length
            }, CURLOPT_HEADERFUNCTION)

        try handle.set(CURLOPT_XFERINFODATA, pointer: sink)
        try CurlEasyHandle.check(
            ccurl_easy_setopt_xferinfo_function(handle.raw) { userdata, _, _, _, _ in
                guard let userdata else { return 0 }
                let sink = Unmanaged<TransferSink>.fromOpaque(userdata).takeUnretainedValue()
                return sink.control.isCancelled ? 1 : 0
            }, CURLOPT_XFERINFOFUNCTION)
        try handle.set(CURLOPT_NOPROGRESS, 0)
    }
}
