#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A value guarded by a pthread mutex.
///
/// STYLE.md §6: `Synchronization.Mutex` drew false ThreadSanitizer races on Linux and a pthread box did not;
/// the library depends on nothing but the toolchain, so it keeps this small box rather than `NIOLockedValueBox`.
///
/// `@unchecked Sendable`: every access to `value` happens inside `withLock`, under `mutex`.
final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        self.mutex = .allocate(capacity: 1)
        self.mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(self.mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(self.mutex)
        self.mutex.deinitialize(count: 1)
        self.mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Keep `body` short: no blocking, no awaiting.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(self.mutex)
        defer { pthread_mutex_unlock(self.mutex) }
        return try body(&self.value)
    }
}
