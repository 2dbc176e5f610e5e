internal import CCurl
internal import CurlErrorCodes
internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif
#if canImport(Glibc)
    internal import Glibc
#endif

/// What a call sends after its head.
enum HTTPRequestBody: Sendable {
    case none
    case data(Data)
    /// The file's bytes, read as they are sent.
    case file(URL)
}

/// What a call tells its caller, on the transport's thread and in this order: the answer's head once,
/// the pieces of its body, then the end once (nil: the whole answer came).
struct HTTPCallHandlers: Sendable {
    var response: @Sendable (HTTPURLResponse) -> Void = { _ in }
    /// A piece of the body, valid only during the call; an error returned stops the transfer, which ends
    /// with that error.
    var data: @Sendable (UnsafeRawBufferPointer) -> URLError? = { _ in nil }
    var completion: @Sendable (URLError?) -> Void
}

/// One request on `HTTPTransport`: its easy handle and what the libcurl callbacks need, from `makeHandle`
/// to `complete`.
///
/// As URLSession: redirects are followed (http and https only, at most 16), the `timeoutInterval` of the
/// request is how long it may stay idle (connecting, or waiting for bytes), and a failure is a `URLError`
/// with the failing URL. Proxies come from the environment (`http_proxy`, `https_proxy`, `no_proxy`).
///
/// `@unchecked Sendable`: made on the caller's thread and then used only on the transport's, except
/// `cancelled`, which is locked.
final class HTTPCall: @unchecked Sendable {
    enum Outcome {
        /// libcurl ended the transfer with this code.
        case finished(CURLcode)
        /// Taken out of the transport before it ended, or before it started.
        case cancelledByCaller
    }

    private let request: URLRequest
    private let body: HTTPRequestBody
    private let handlers: HTTPCallHandlers
    private let bufferSize: Int
    private let cancelled = Locked(false)

    private(set) var handle: UnsafeMutableRawPointer?
    private var headers: UnsafeMutablePointer<curl_slist>?
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// The body sent so far (`.data`) or the file read from (`.file`).
    private var sentBytes = 0
    private var bodyFile: Int32 = -1
    /// The head being read: status, then header lines; reset by each status line (a 100, a redirect).
    private var status = 0
    private var headerLines: [String] = []
    private var responded = false
    /// Why the transfer was stopped from a callback, if it was.
    private var stoppedWith: URLError?
    private var completed = false

    /// - Parameter bufferSize: the most libcurl reads at a time (a file's download: large, fewer calls).
    init(_ request: URLRequest, body: HTTPRequestBody? = nil, bufferSize: Int = 64 << 10, handlers: HTTPCallHandlers) {
        self.request = request
        self.bufferSize = bufferSize
        self.body = body ?? request.httpBody.map(HTTPRequestBody.data) ?? .none
        self.handlers = handlers
        self.errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        errorText.deallocate()
    }

    var isCancelled: Bool { cancelled.withLock { $0 } }

    func markCancelled() {
        cancelled.withLock { $0 = true }
    }

    /// The easy handle with every option set; nil when the call cannot start (it has completed then).
    func makeHandle() -> UnsafeMutableRawPointer? {
        guard let url = request.url, let easy = curl_easy_init() else {
            complete(.finished(CURLE_URL_MALFORMAT))
            return nil
        }
        handle = easy
        if case .file(let file) = body {
            bodyFile = open(file.path, O_RDONLY | O_CLOEXEC)
            guard bodyFile >= 0 else {
                stoppedWith = URLError(errno == ENOENT ? .fileDoesNotExist : .noPermissionsToReadFile, userInfo: failing(url))
                complete(.finished(CURLE_READ_ERROR))
                return nil
            }
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_easy_setopt_string(easy, CURLOPT_URL, url.absoluteString)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorText)
        _ = ccurl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = ccurl_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = ccurl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_MAXREDIRS, 16)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, bufferSize)
        setIdleTimeout(on: easy)
        setMethodAndBody(on: easy)
        setHeaders(on: easy)
        _ = ccurl_easy_setopt_header_function(easy, HTTPCall.headerLine)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = ccurl_easy_setopt_write_function(easy, HTTPCall.bodyPiece)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = ccurl_easy_setopt_read_function(easy, HTTPCall.uploadPiece)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_READDATA, context)
        _ = ccurl_easy_setopt_seek_function(easy, HTTPCall.rewind)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_SEEKDATA, context)
        return easy
    }

    /// URLSession's `timeoutInterval`: the longest a connection attempt or a wait for bytes may last.
    /// libcurl judges the wait by its transfer rate over the last few seconds, so a call that stalls right
    /// after bytes came ends up to about 5 s past the interval (a 1 s timeout ended after 6–7 s here).
    private func setIdleTimeout(on easy: UnsafeMutableRawPointer) {
        let seconds = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        _ = ccurl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(min(seconds, 86_400) * 1000))
        _ = ccurl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, Int(min(seconds, 86_400).rounded(.up))))
    }

    private func setMethodAndBody(on easy: UnsafeMutableRawPointer) {
        let method = request.httpMethod?.uppercased() ?? "GET"
        let bodyLength = bodyLength  // a file's is an `fstat`: once
        switch method {
        case "GET" where bodyLength == 0: return
        case "HEAD":
            _ = ccurl_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
        default:
            // Every other method is a POST for libcurl, with the body read from `uploadPiece`.
            _ = ccurl_easy_setopt_long(easy, CURLOPT_POST, 1)
            _ = ccurl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bodyLength))
            if method != "POST" { _ = ccurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method) }
        }
    }

    private var bodyLength: Int {
        switch body {
        case .none: 0
        case .data(let data): data.count
        case .file:
            fileSize(of: bodyFile) ?? 0
        }
    }

    private func fileSize(of descriptor: Int32) -> Int? {
        var information = stat()
        guard fstat(descriptor, &information) == 0 else { return nil }
        return Int(information.st_size)
    }

    /// The request's fields, and none of libcurl's own that URLSession would not send: no form
    /// `Content-Type` on a body without one, no `Expect: 100-continue` (a second's wait on large bodies).
    private func setHeaders(on easy: UnsafeMutableRawPointer) {
        let fields = request.allHTTPHeaderFields ?? [:]
        var lines = fields.map { name, value in value.isEmpty ? "\(name);" : "\(name): \(value)" }
        let named = Set(fields.keys.map { $0.lowercased() })
        if !named.contains("content-type") { lines.append("Content-Type:") }
        if !named.contains("expect") { lines.append("Expect:") }
        if !named.contains("user-agent") { lines.append("User-Agent: URLSessionRemote") }
        for line in lines { headers = curl_slist_append(headers, line) }
        _ = ccurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headers)
    }

    /// Ends the call once: its handle and file are let go of, then the caller hears how it ended.
    func complete(_ outcome: Outcome) {
        guard !completed else { return }
        completed = true
        let error: URLError? =
            switch outcome {
            case .cancelledByCaller: URLError(.cancelled, userInfo: failing(request.url))
            case .finished(let code) where code == CURLE_OK: responded ? nil : URLError(.badServerResponse, userInfo: failing(request.url))
            case .finished(let code): stoppedWith ?? urlError(code)
            }
        if let handle { curl_easy_cleanup(handle) }
        handle = nil
        curl_slist_free_all(headers)
        headers = nil
        if bodyFile >= 0 { close(bodyFile) }
        bodyFile = -1
        handlers.completion(error)
    }

    private func urlError(_ code: CURLcode) -> URLError {
        var userInfo = failing(request.url)
        let text = String(cString: errorText)
        userInfo[NSLocalizedDescriptionKey] = text.isEmpty ? String(cString: curl_easy_strerror(code)) : text
        let urlCode = CurlErrorCodes.urlErrorCode(
            forCurlCode: Int(code.rawValue), malformedServerReply: CurlErrorCodes.isMalformedServerReply(text))
        return URLError(URLError.Code(rawValue: urlCode) ?? .unknown, userInfo: userInfo)
    }

    private func failing(_ url: URL?) -> [String: Any] {
        guard let url else { return [:] }
        return [NSURLErrorFailingURLErrorKey: url]
    }

    // MARK: libcurl's callbacks (on the transport's thread, `userdata` is the call)

    private static let headerLine: curl_write_callback = { bytes, size, count, userdata in
        guard let bytes, let userdata else { return 0 }
        let call = Unmanaged<HTTPCall>.fromOpaque(userdata).takeUnretainedValue()
        let length = size * count
        let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        call.read(headerLine: line)
        return length
    }

    private func read(headerLine raw: String) {
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            headerLines = []
        } else if !line.isEmpty {
            headerLines.append(line)
        } else if !responded && status >= 200 && !isRedirectToFollow {
            respond()
        }
    }

    /// A 3xx with a `Location` is followed: its head is not the answer.
    private var isRedirectToFollow: Bool {
        [301, 302, 303, 307, 308].contains(status) && headerLines.contains { $0.lowercased().hasPrefix("location:") }
    }

    private func respond() {
        responded = true
        var fields: [String: String] = [:]
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            // As HTTPURLResponse: repeated fields are one, their values joined by commas.
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        var effective: UnsafePointer<CChar>? = nil
        if let handle { _ = ccurl_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective) }
        let url = effective.flatMap { URL(string: String(cString: $0)) } ?? request.url ?? URL(fileURLWithPath: "/")
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields) else { return }
        handlers.response(response)
    }

    private static let bodyPiece: curl_write_callback = { bytes, size, count, userdata in
        guard let bytes, let userdata else { return 0 }
        let call = Unmanaged<HTTPCall>.fromOpaque(userdata).takeUnretainedValue()
        if !call.responded { call.respond() }  // a head without its blank line (an HTTP/0.9 answer)
        guard let stop = call.handlers.data(UnsafeRawBufferPointer(start: bytes, count: size * count)) else { return size * count }
        call.stoppedWith = stop
        return 0
    }

    private static let uploadPiece: curl_read_callback = { buffer, size, count, userdata in
        guard let buffer, let userdata else { return ccurl_read_func_abort() }
        let call = Unmanaged<HTTPCall>.fromOpaque(userdata).takeUnretainedValue()
        return call.fill(UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
    }

    private func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        switch body {
        case .none: return 0
        case .data(let data):
            let piece = min(buffer.count, data.count - sentBytes)
            guard piece > 0 else { return 0 }
            let start = data.index(data.startIndex, offsetBy: sentBytes)
            data.copyBytes(to: buffer, from: start..<data.index(start, offsetBy: piece))
            sentBytes += piece
            return piece
        case .file:
            let count = Glibc.read(bodyFile, buffer.baseAddress, buffer.count)
            guard count >= 0 else {
                stoppedWith = URLError(.cannotOpenFile, userInfo: failing(request.url))
                return ccurl_read_func_abort()
            }
            return count
        }
    }

    /// libcurl sends the body again (a redirect that keeps it, a connection that closed under a reused request).
    private static let rewind: curl_seek_callback = { userdata, offset, origin in
        guard let userdata, origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
        let call = Unmanaged<HTTPCall>.fromOpaque(userdata).takeUnretainedValue()
        switch call.body {
        case .none: return CURL_SEEKFUNC_OK
        case .data: call.sentBytes = Int(offset)
        case .file: guard lseek(call.bodyFile, off_t(offset), SEEK_SET) >= 0 else { return CURL_SEEKFUNC_FAIL }
        }
        return CURL_SEEKFUNC_OK
    }
}
