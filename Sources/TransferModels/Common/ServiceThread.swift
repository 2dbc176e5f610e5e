import CLinux
import Foundation

/// The threads the service starts itself (the libcurl loops, the relays, the object store's calls): each
/// named for the kernel, so `top -H`, `ps -L`, `perf` and `/proc/PID/task/*/comm` tell them apart.
///
/// Foundation's `Thread.name` on Linux stays inside Foundation: a loop's thread, started from a
/// concurrency-pool thread, showed its creator's name (`oot.default-qos`, the tail of libdispatch's), so
/// neither an operator nor a profile could tell the engine from the webhook sender. The kernel keeps at most
/// 15 bytes and `pthread_setname_np` refuses a longer name rather than cutting it, so the prefix every thread
/// of the process shares (`urlsessiond-`) is dropped and the rest cut to 15 bytes.
public enum ServiceThread {
    /// The kernel's limit, without the terminating NUL.
    public static let maximumNameBytes = 15

    /// Runs `body` on a new thread named `name` (in Foundation, and `kernelName(for: name)` in the kernel).
    public static func start(name: String, stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            _ = pthread_setname_np(pthread_self(), kernelName(for: name))
            body()
        }
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
    }

    /// What the kernel is given for `name`: `urlsessiond-engine` → `engine`.
    public static func kernelName(for name: String) -> String {
        let prefix = "urlsessiond-"
        let bare = name.hasPrefix(prefix) && name.count > prefix.count ? String(name.dropFirst(prefix.count)) : name
        var kept = ""  // whole characters only, so a UTF-8 sequence is never cut in two
        for character in bare {
            guard kept.utf8.count + character.utf8.count <= maximumNameBytes else { break }
            kept.append(character)
        }
        return kept
    }
}
