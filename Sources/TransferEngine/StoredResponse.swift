import Foundation

/// A response the session's URL cache holds for a job's request, and how the transfer uses it: served as
/// the answer without touching the network (a cache hit), or validated — the request goes with the
/// conditional fields, and a `304 Not Modified` is answered with the stored response, its header fields
/// updated from the 304's.
public struct StoredTransferResponse: Sendable {
    public enum Use: Sendable {
        case serve
        case validate(conditionalFields: [(name: String, value: String)])
    }

    public var use: Use
    /// The status and header fields as stored.
    public var head: ResponseHead
    public var body: StoredBody

    public init(use: Use, head: ResponseHead, body: StoredBody) {
        self.use = use
        self.head = head
        self.body = body
    }

    var isServed: Bool {
        if case .serve = use { return true }
        return false
    }

    var conditionalFields: [(name: String, value: String)] {
        if case .validate(let fields) = use { return fields }
        return []
    }
}

/// A stored body: bytes the cache holds in memory, or its file, already open.
public enum StoredBody: Sendable {
    case bytes([UInt8])
    case file(StoredBodyFile)

    public var length: Int64 {
        switch self {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(let file): file.length
        }
    }
}

/// A cache file opened when the job was made: the descriptor keeps its bytes readable even if the cache
/// evicts (unlinks) the entry before the transfer reads it. Closed when the last job copy goes.
public final class StoredBodyFile: Sendable {
    let descriptor: Int32
    public let length: Int64

    public init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ENOENT) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        self.descriptor = descriptor
        self.length = Int64(status.st_size)
    }

    deinit { close(descriptor) }

    /// Reads the whole file, in pieces, into `consume`.
    func read(into consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var offset: Int64 = 0
        while offset < length {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, off_t(offset)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            try buffer.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            offset += Int64(got)
        }
    }
}
