import Curl
import Foundation

/// One request to the object store on an easy handle of its own, run to its end by `curl_easy_perform` on
/// the calling thread — a thread `ObjectStore` starts for it, never one of Swift's cooperative pool, so the
/// callbacks below may wait (a reader's backpressure) without holding up anything else.
///
/// The endpoint is the operator's configuration, not a tenant's URL: the tenant egress guard
/// (`EgressPolicy`, which refuses loopback and private addresses) does not apply to it, so an object store on
/// loopback or a private network is allowed. The rest of the safety baseline does: http and https only, no
/// redirect followed, no proxy from the environment.
final class ObjectExchange {
    enum Method: String {
        case get = "GET"
        case head = "HEAD"
        case put = "PUT"
        case delete = "DELETE"
    }

    /// SHA-256 of an empty payload: the signed hash of requests without a body.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// An S3 error body is short XML; more than this is not read.
    static let errorBodyLimit = 64 * 1024

    let method: Method
    let key: String
    private let easy: CurlEasyHandle
    /// The descriptor of the file a put sends, and how far it has been read.
    private let upload: Int32?
    private var uploadOffset: Int64 = 0
    private var uploadFailure: String?
    /// Receives the body of a successful (2xx) answer; false stops the transfer.
    private let sink: ((UnsafeRawBufferPointer) -> Bool)?
    /// Polled at least once a second (libcurl's progress callback): true stops the transfer.
    private let isStopped: () -> Bool
    private(set) var sinkStopped = false
    /// The final response's header fields (those of a 1xx or a 100-continue are dropped).
    private(set) var headers: [(name: String, value: String)] = []
    private(set) var errorBody: [UInt8] = []

    init(
        configuration: ObjectStoreConfiguration, method: Method, key: String, range: ClosedRange<UInt64>? = nil,
        upload: (descriptor: Int32, size: Int64)? = nil, sink: ((UnsafeRawBufferPointer) -> Bool)? = nil,
        isStopped: @escaping () -> Bool = { false }
    ) throws(CurlError) {
        self.method = method
        self.key = key
        self.upload = upload?.descriptor
        self.sink = sink
        self.isStopped = isStopped
        easy = try CurlEasyHandle()
        try easy.disableSignalsAndRedirects()
        try easy.set(.protocols, "http,https")
        try easy.set(.redirectProtocols, "http,https")
        try easy.set(.proxy, "")  // no proxy from the environment
        try easy.set(.url, Self.url(of: key, in: configuration))
        try easy.set(.awsSignatureV4, "aws:amz:\(configuration.region):s3")
        try easy.set(.username, configuration.accessKeyId)
        try easy.set(.password, configuration.secretAccessKey)
        try easy.set(.connectTimeoutMilliseconds, Int(configuration.connectTimeout * 1000))
        try easy.set(.lowSpeedLimit, 1)
        try easy.set(.lowSpeedTime, configuration.stallTimeout)
        // libcurl 7.88 signs the payload with the hash this field gives (S3 requires the field anyway): a
        // file is streamed, so its hash is not known before it is sent (`UNSIGNED-PAYLOAD`, which S3 accepts).
        var lines = ["x-amz-content-sha256: \(upload == nil ? Self.emptyPayloadHash : "UNSIGNED-PAYLOAD")"]
        if let range { lines.append("Range: bytes=\(range.lowerBound)-\(range.upperBound)") }
        switch method {
        case .get: try easy.set(.httpGet, true)
        case .head: try easy.set(.noBody, true)
        case .delete: try easy.set(.customRequest, "DELETE")
        case .put:
            try easy.set(.upload, true)
            try easy.set(.uploadSize, upload?.size ?? 0)
            lines.append("Content-Type: application/octet-stream")
        }
        try easy.setHeaders(lines)
        var callbacks: CurlCallbacks = [.response, .progress]
        if upload != nil { callbacks.insert(.requestBody) }
        try easy.installCallbacks(callbacks)
    }

    /// Runs the request; the result is libcurl's (a response of any status is a success here).
    func perform() -> Result<Int, ObjectStoreError> {
        easy.delegate = self
        let result = easy.perform()
        easy.delegate = nil
        if let uploadFailure { return .failure(.localFile("reading the file for \(key) failed: \(uploadFailure)")) }
        if sinkStopped || (isStopped() && !result.isSuccess) { return .failure(.cancelled) }
        guard result.isSuccess else {
            return .failure(.transport("\(method.rawValue) \(key): \(easy.errorMessage(for: result)) (libcurl \(result.code))"))
        }
        return .success(easy.info(.responseCode))
    }

    /// A header field of the final response, by name without case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The error for an answer with an unexpected `status`: S3's `<Code>` and `<Message>` when it sent them.
    func rejection(status: Int) -> ObjectStoreError {
        let text = String(decoding: errorBody, as: UTF8.self)
        let code = Self.element("Code", in: text)
        if status == 404 && (code == nil || code == "NoSuchKey") { return .notFound("\(method.rawValue) \(key): no such object") }
        let message = Self.element("Message", in: text).map { ": \($0)" } ?? ""
        return .rejected(status: status, serverCode: code, detail: "\(method.rawValue) \(key) answered \(status)\(message)")
    }

    /// `endpoint/bucket/key`, the key percent-encoded except for its slashes (RFC 3986 unreserved kept), as
    /// SigV4's canonical URI for S3 wants it: encoded once.
    static func url(of key: String, in configuration: ObjectStoreConfiguration) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
        let encoded = key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key
        return "\(configuration.endpoint)/\(configuration.bucket)/\(encoded)"
    }

    private static func element(_ name: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<\(name)>"), let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex)
        else { return nil }
        return String(xml[open.upperBound..<close.lowerBound])
    }
}

@available(*, unavailable) extension ObjectExchange: Sendable {}

extension ObjectExchange: CurlTransferDelegate {
    func curlDidReceiveHeaderLine(_ line: UnsafeRawBufferPointer) {
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<end]), as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            headers.removeAll()  // a new response (after a 100-continue)
        } else if let colon = text.firstIndex(of: ":") {
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((String(text[..<colon]), value))
        }
    }

    func curlDidReceiveBody(_ bytes: UnsafeRawBufferPointer) -> CurlBodyVerdict {
        let status = easy.info(.responseCode)
        guard (200..<300).contains(status) else {
            errorBody.append(contentsOf: bytes.prefix(max(0, Self.errorBodyLimit - errorBody.count)))
            return .accepted
        }
        guard let sink else { return .accepted }
        guard sink(bytes) else {
            sinkStopped = true
            return .failed
        }
        return .accepted
    }

    func curlReadBody(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let upload, let base = buffer.baseAddress else { return nil }
        while true {  // bounded: EINTR only repeats the same read
            let count = pread(upload, base, buffer.count, off_t(uploadOffset))
            if count >= 0 {
                uploadOffset += Int64(count)
                return count
            }
            guard errno == EINTR else { break }
        }
        uploadFailure = String(cString: strerror(errno))
        return nil
    }

    func curlRewindBody(to offset: Int64) -> Bool {
        guard upload != nil else { return false }
        uploadOffset = offset
        return true
    }

    func curlProgress(totalBytesSent: Int64) -> Bool {
        !isStopped()
    }
}
