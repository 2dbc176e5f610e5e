import Foundation
import TransferModels

/// Where a response body goes as it arrives: memory (spilling to a file past a limit, so no body sits
/// unbounded in memory) or straight to a download file.
final class BodySink {
    private enum Storage {
        case memory([UInt8])
        case file(descriptor: Int32, path: String)
        case closed
    }

    private var storage: Storage
    private let limit: Int
    private let spillPath: String?
    /// Bytes the body holds (a resumed download's kept ones included).
    private(set) var length: Int64 = 0
    private var finishedPath: String?
    private var writeback = WritebackPacer()
    /// A followed body keeps its bytes here (in memory: then `storage` holds none) and tells its readers.
    let growing: GrowingBody?

    private init(storage: Storage, limit: Int, spillPath: String?, growing: GrowingBody? = nil) {
        self.storage = storage
        self.limit = limit
        self.spillPath = spillPath
        self.growing = growing
    }

    /// A data task's body: memory up to `limit`, then the file at `spillPath`. A `followed` one can be
    /// read while it arrives, through `growing`.
    static func memory(limit: Int, spillPath: String, followed: Bool = false) -> BodySink {
        BodySink(storage: .memory([]), limit: limit, spillPath: spillPath, growing: followed ? GrowingBody() : nil)
    }

    /// A download: the file at `path`, created (or truncated) now.
    static func file(path: String) throws -> BodySink {
        BodySink(storage: .file(descriptor: try open(path), path: path), limit: 0, spillPath: nil)
    }

    /// A download picked up again: the first `offset` bytes of the file at `path` are kept (anything past
    /// them, written after the last checkpoint, is cut) and new bytes follow them.
    static func file(path: String, keeping offset: Int64) throws -> BodySink {
        let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let sink = BodySink(storage: .file(descriptor: descriptor, path: path), limit: 0, spillPath: nil)
        sink.length = offset
        sink.writeback = WritebackPacer(from: offset)
        return sink
    }

    /// A sink dropped without an end (its transfer was abandoned) ends its readers' bodies.
    deinit { growing?.end(.discarded) }

    /// The server sent the whole representation instead of the rest: the kept bytes go.
    func truncate() throws {
        guard case .file(let descriptor, _) = storage else { return }
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        length = 0
    }

    func append(_ bytes: UnsafeRawBufferPointer) throws {
        switch storage {
        case .memory(var buffer):
            if length + Int64(bytes.count) > limit, let spillPath {
                let descriptor = try Self.open(spillPath)
                storage = .file(descriptor: descriptor, path: spillPath)
                let kept = growing?.memory ?? buffer
                try kept.withUnsafeBytes { try Self.write(descriptor, $0) }
                try growing?.spilled(to: spillPath)
                try Self.write(descriptor, bytes)
                growing?.grew(by: bytes.count)
            } else if let growing {
                growing.append(bytes)
            } else {
                storage = .closed  // let `buffer` be uniquely referenced while it grows
                buffer.append(contentsOf: bytes)
                storage = .memory(buffer)
            }
        case .file(let descriptor, _):
            try Self.write(descriptor, bytes)
            growing?.grew(by: bytes.count)
        case .closed:
            throw POSIXError(.EBADF)
        }
        length += Int64(bytes.count)
        if case .file(let descriptor, _) = storage { writeback.wrote(upTo: length, descriptor: descriptor) }
    }

    /// Flushes and closes a file body (a disk error here fails the task, as URLSession's -3003 does).
    func finish() throws {
        if case .file(let descriptor, let path) = storage {
            storage = .closed
            finishedPath = path
            guard close(descriptor) == 0 else {
                growing?.end(.discarded)
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
        growing?.end(.received)
    }

    /// Drops the body (a failed or cancelled transfer). Its readers are told; they keep what they hold.
    func discard() {
        if case .file(let descriptor, let path) = storage {
            close(descriptor)
            unlink(path)
        }
        storage = .closed
        growing?.end(.discarded)
    }

    var body: TransferBody {
        switch storage {
        case .memory(let bytes): return .bytes(growing?.memory ?? bytes)
        case .file(_, let path): return .file(path: path, length: length)
        case .closed: return finishedPath.map { .file(path: $0, length: length) } ?? .none
        }
    }

    private static func open(_ path: String) throws -> Int32 {
        let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return descriptor
    }

    private static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += written
        }
    }
}

/// A request body read by libcurl's read callback: bytes in memory, or a file read with `pread`.
final class UploadSource {
    private let body: OutgoingRequest.Body
    private var descriptor: Int32 = -1
    private var offset: Int64 = 0

    init(_ body: OutgoingRequest.Body) throws {
        self.body = body
        if case .file(let path, _) = body {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ENOENT) }
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let remaining = Int(max(0, body.length - offset))
        let count = min(buffer.count, remaining)
        guard count > 0 else { return 0 }
        switch body {
        case .bytes(let bytes):
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + Int(offset), byteCount: count)
            }
        case .file:
            let got = pread(descriptor, buffer.baseAddress!, count, off_t(offset))
            guard got > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            offset += Int64(got)
            return got
        case .none, .stream:  // a stream is read by `Transfer.curlReadBody` itself
            return 0
        }
        offset += Int64(count)
        return count
    }

    func seek(to position: Int64) { offset = max(0, min(position, body.length)) }
}
