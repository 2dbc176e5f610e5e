#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a pthread mutex.
///
/// STYLE.md §6: `Synchronization.Mutex` drew false ThreadSanitizer races on Linux and a pthread box did not;
/// this module depends on swift-log alone, so it keeps its own small box.
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

    /// Runs `body` with exclusive access to the value. Keep `body` short: no blocking, no awaiting, no callbacks.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(self.mutex)
        defer { pthread_mutex_unlock(self.mutex) }
        return try body(&self.value)
    }
}
