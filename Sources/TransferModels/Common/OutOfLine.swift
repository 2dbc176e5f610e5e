/// A struct's large member kept out of line, with value semantics: the struct holding it stays small, so
/// copying it — a dictionary growing, a copy taken under a lock and written back — moves one reference
/// instead of a kilobyte and the retains of every field in it. Reads go through the reference; a write
/// copies the value first only if another copy shares it (copy on write, as `Array` does).
///
/// Measured where it is used: a task's entry in the task table was 4,352 bytes inline (the attempt's
/// `TaskRecord` alone 1,017, the session's configuration 344, the prepared job 880), copied whole at
/// every engine report and moved whole whenever the table grew.
///
/// Inlinable, and read by `_read`: a plain getter called from another module returned a copy of the whole
/// value, so `task.record.kind` copied the record it meant to spare.
@propertyWrapper
public struct OutOfLine<Value> {
    /// `@unchecked Sendable`: `value` is written only through `wrappedValue`'s `_modify`/`set`, after
    /// `isKnownUniquelyReferenced` has made this copy the storage's one owner.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    @usableFromInline var storage: Storage

    @inlinable
    public init(wrappedValue: Value) { storage = Storage(wrappedValue) }

    @inlinable
    public var wrappedValue: Value {
        _read { yield storage.value }
        set {
            if isKnownUniquelyReferenced(&storage) {
                storage.value = newValue
            } else {
                storage = Storage(newValue)
            }
        }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.value) }
            yield &storage.value
        }
    }
}

extension OutOfLine: Sendable where Value: Sendable {}
