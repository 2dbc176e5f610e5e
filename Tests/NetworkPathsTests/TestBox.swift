import Foundation

/// A value the test changes while a monitor reads it from its own closure (the fake kernel, the handler calls).
///
/// `@unchecked Sendable`: every access to `stored` happens under `lock`.
final class TestBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { self.stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func mutate(_ body: (inout Value) -> Void) {
        lock.withLock { body(&stored) }
    }
}
