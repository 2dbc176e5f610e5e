import Foundation
import TransferModels

/// A file opened by the handler for the body of its answer (`HTTPResponse.Body.file`).
///
/// The handler opens it, so there is no window in which the file can vanish between the handler and the
/// server: a file removed after this (`DELETE /v1/tasks/{id}/file`, the janitor) is still sent whole from
/// its descriptor, and one already gone is the handler's own 404.
///
/// It owns the descriptor until ``handOver(_:)`` gives it to the server (MHD closes it with its response).
/// An answer that is never queued — the client left while the request was suspended — closes it in `deinit`.
public final class ResponseFile: Sendable {
    /// The file's size when it was opened (`fstat` of the descriptor, not of the path).
    public let size: UInt64
    /// Nil once handed over.
    private let descriptor: LockedBox<Int32?>

    /// Opens `path` for reading; nil when there is no such file (any more).
    /// - Throws: ``ControlPlaneError`` when the file exists but cannot be opened, or is not a regular file.
    public init?(opening path: String) throws(ControlPlaneError) {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw ControlPlaneError(detail: "could not open a body file: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(opened, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw ControlPlaneError(detail: "a body file is not a regular file")
        }
        size = UInt64(info.st_size)
        descriptor = LockedBox(opened)
    }

    /// Gives the descriptor to `take`, which owns it from then on if it returns a value; if it returns nil
    /// (or the descriptor was already handed over) the file keeps it and nil is returned.
    func handOver<Taken>(_ take: (Int32) -> Taken?) -> Taken? {
        descriptor.withLock { descriptor in
            guard let open = descriptor, let taken = take(open) else { return nil }
            descriptor = nil
            return taken
        }
    }

    deinit {
        if let open = descriptor.withLock({ $0 }) { close(open) }
    }
}
