import Curl

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

extension TransferSink: CurlTransferDelegate {
    func curlDidReceiveBody(_ bytes: UnsafeRawBufferPointer) -> CurlBodyVerdict {
        receiveBody(bytes) ? .accepted : .failed
    }

    func curlDidReceiveHeaderLine(_ line: UnsafeRawBufferPointer) {
        receiveHeaderLine(line)
    }

    func curlProgress(totalBytesSent: Int64) -> Bool {
        !control.isCancelled
    }
}

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
        let handle = try Self.make { () throws(CurlError) in try CurlEasyHandle() }
        let sink = TransferSink(control: control, onChunk: onChunk)
        try Self.make { () throws(CurlError) in
            try Self.configure(handle, for: request)
            handle.delegate = sink
            try handle.installCallbacks([.response, .progress])
        }
        let result = withExtendedLifetime(sink) { handle.perform() }

        if control.isCancelled { throw CancellationError() }
        guard result.isSuccess || (result == .writeError && sink.stoppedByCaller) else {
            throw HTTPClientError(code: result.code, message: handle.errorMessage(for: result))
        }
        return TestHTTPResponse(status: handle.info(CurlNumberInfo.responseCode), headers: sink.headers, body: sink.body)
    }

    /// A libcurl failure while setting up, as the client's error.
    private static func make<T>(_ body: () throws(CurlError) -> T) throws(HTTPClientError) -> T {
        do {
            return try body()
        } catch {
            throw HTTPClientError(code: error.code, message: error.message)
        }
    }

    private static func configure(_ handle: CurlEasyHandle, for request: TestHTTPRequest) throws(CurlError) {
        try handle.set(.url, request.url)
        // Signals would hit whichever test thread runs; timeouts then rely on curl's own clock. Redirect
        // tests inspect the 3xx itself.
        try handle.disableSignalsAndRedirects()
        try handle.set(.timeoutMilliseconds, max(1, Int((request.timeout * 1000).rounded(.up))))
        try handle.set(.protocols, "http,https")
        // Tests talk to loopback only; an http_proxy in the environment must never reroute them.
        try handle.set(.noProxy, "*")

        let method = request.method
        if let body = request.body {
            // The size must be set before COPYPOSTFIELDS so binary bodies with NUL bytes copy whole.
            try handle.set(.postFieldSize, Int64(body.count))
            try handle.setCopiedBody(body)
            if method != "POST" { try handle.set(.customRequest, method) }
        } else if method == "HEAD" {
            // CUSTOMREQUEST "HEAD" would make curl wait for a body that never comes.
            try handle.set(.noBody, true)
        } else if method != "GET" {
            try handle.set(.customRequest, method)
        }

        // "Name;" is curl's syntax for a field with an empty value; "Name:" would remove it.
        var lines = request.headers.map { name, value in value.isEmpty ? "\(name);" : "\(name): \(value)" }
        if request.header("Expect") == nil { lines.append("Expect:") }
        if request.body != nil, request.header("Content-Type") == nil { lines.append("Content-Type:") }
        try handle.setHeaders(lines)
    }
}
