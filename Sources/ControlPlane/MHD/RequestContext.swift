import CMicroHTTPD
import Foundation

/// Everything MHD's `con_cls` slot holds for one request, from the first access-handler call to
/// NOTIFY_COMPLETED (which releases it).
///
/// `@unchecked Sendable`: it is touched by one MHD thread until the request is suspended, then only by the
/// task answering it until `MHD_resume_connection`, then by an MHD thread again; MHD's resume hand-off
/// orders those accesses.
final class RequestContext: @unchecked Sendable {
    let connection: OpaquePointer
    var request: HTTPRequest
    let startedAt: ContinuousClock.Instant
    var route: Route?
    /// The answer, once known; set before the final access-handler call queues it.
    var response: HTTPResponse?
    /// Status actually queued (for metrics and the access log).
    var queuedStatus: Int = 0
    var receivedBodyBytes: Int64 = 0
    /// Body bytes read and dropped after the request was already answered (bounded by `discardedBodyLimit`).
    var discardedBodyBytes: Int64 = 0
    var bodyLimit: Int64
    /// The body stops once it would pass this quota (a blob upload: the tenant's `blobBytes`), set by the
    /// route's `.quota` step.
    var bodyQuota: BodyQuota?
    var spool: BodySpool?
    /// A streamed upload's body, passed on as it arrives.
    var streamedBody: StreamedRequestBody?
    var isDispatched = false
    /// The streamed body of the answer, if it has one.
    var stream: ResponseStream?
    /// Who takes the connection over once a 101 is sent (read by `mhdUpgradeHandler`).
    var upgrade: ConnectionUpgrade?

    init(connection: OpaquePointer, request: HTTPRequest, bodyLimit: Int64) {
        self.connection = connection
        self.request = request
        self.bodyLimit = bodyLimit
        self.startedAt = .now
    }
}

/// A request body written to a temporary file as it arrives, hashed on the way.
final class BodySpool {
    let url: URL
    private let handle: FileHandle
    private var hasher = SHA256Hasher()
    private(set) var size: Int64 = 0
    private var isClaimed = false

    init(directory: URL) throws {
        url = directory.appendingPathComponent("upload-\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        handle = try FileHandle(forWritingTo: url)
    }

    func append(_ buffer: UnsafeRawBufferPointer) throws {
        try handle.write(contentsOf: buffer)
        hasher.update(buffer)
        size += Int64(buffer.count)
    }

    /// Closes the file and hands it to the handler.
    func finish() throws -> SpooledBody {
        try handle.close()
        return SpooledBody(url: url, size: size, sha256: hasher.finalize())
    }

    /// Removes the file unless a handler moved it away (it then no longer exists, which is fine).
    func discard() {
        try? handle.close()
        unlink(url.path)
    }
}
