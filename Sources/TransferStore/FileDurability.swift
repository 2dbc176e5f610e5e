import Foundation

/// Making a file, and its name in its directory, survive a power cut before a row points at it.
///
/// `fsync` can take as long as writing the whole file back, so it runs on threads of its own, never on
/// the concurrency pool's (a few large files would otherwise stall every request of the service).
public enum FileDurability {
    private static let queue = DispatchQueue(label: "urlsessiond.fsync", qos: .utility, attributes: .concurrent)

    /// Flushes the file at `path` and then its directory (the entry a create or rename made).
    public static func sync(fileAt path: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                continuation.resume(
                    with: Result {
                        try syncNow(path)
                        try syncNow((path as NSString).deletingLastPathComponent)
                    })
            }
        }
    }

    /// `fsync` of a file or directory by path, on the calling thread.
    public static func syncNow(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        while fsync(descriptor) != 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
    }
}
