import Foundation

/// The wake-up pipe of a `poll` loop: other threads `wake()` it after queueing work, the loop polls
/// `descriptor` beside its sockets and `drain()`s it when it fired. Both ends are non-blocking: a full
/// pipe already wakes the loop, so a wake-up is never a blocking write.
public final class WakePipe: Sendable {
    /// The end the loop polls (`POLLIN`).
    public let descriptor: Int32
    private let writer: Int32

    public init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends where end >= 0 {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (descriptor, writer) = (ends[0], ends[1])
    }

    deinit {
        close(descriptor)
        close(writer)
    }

    public func wake() {
        var one: UInt8 = 1
        _ = write(writer, &one, 1)
    }

    /// Reads every pending wake-up.
    public func drain() {
        var drained = [UInt8](repeating: 0, count: 512)
        while read(descriptor, &drained, drained.count) > 0 {}
    }
}
