import Foundation

/// A value guarded by a pthread mutex (`NSLock` on Linux).
///
/// `@unchecked Sendable`: every access to `value` happens inside `withLock`, under `lock`.
/// (`Synchronization.Mutex` drew false ThreadSanitizer reports on this toolchain; see STYLE.md §6.)
public final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access; keep it short and never block or await inside.
    @inline(__always)
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
