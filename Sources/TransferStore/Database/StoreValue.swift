public import Foundation
import JSONCodec

/// A value as both backends hold it: a statement's argument or a row's column. The store writes only
/// these five kinds, so the same statement means the same on SQLite and on PostgreSQL: dates are their
/// `storageText` (which sorts as it compares), booleans 0 or 1, JSON its text.
public enum StoreValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift value a statement can take as an argument.
public protocol StoreArgument: Sendable {
    var storeValue: StoreValue { get }
}

/// A Swift value a column can be read as.
public protocol StoreColumnValue {
    /// nil when the stored value is not one of this type.
    init?(storeValue: StoreValue)
}

extension String: StoreArgument, StoreColumnValue {
    public var storeValue: StoreValue { .text(self) }
    public init?(storeValue: StoreValue) {
        guard case .text(let text) = storeValue else { return nil }
        self = text
    }
}

extension Int64: StoreArgument, StoreColumnValue {
    public var storeValue: StoreValue { .integer(self) }
    public init?(storeValue: StoreValue) {
        guard case .integer(let value) = storeValue else { return nil }
        self = value
    }
}

extension Int: StoreArgument, StoreColumnValue {
    public var storeValue: StoreValue { .integer(Int64(self)) }
    public init?(storeValue: StoreValue) {
        guard case .integer(let value) = storeValue else { return nil }
        self = Int(value)
    }
}

extension Double: StoreArgument, StoreColumnValue {
    public var storeValue: StoreValue { .real(self) }
    public init?(storeValue: StoreValue) {
        switch storeValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)  // SQLite keeps a whole REAL as an integer
        default: return nil
        }
    }
}

extension Bool: StoreArgument, StoreColumnValue {
    public var storeValue: StoreValue { .integer(self ? 1 : 0) }
    public init?(storeValue: StoreValue) {
        guard case .integer(let value) = storeValue else { return nil }
        self = value != 0
    }
}

extension Data: StoreArgument, StoreColumnValue {
    public var storeValue: StoreValue { .blob(Array(self)) }
    public init?(storeValue: StoreValue) {
        guard case .blob(let bytes) = storeValue else { return nil }
        self = Data(bytes)
    }
}

extension Array: StoreArgument where Element == UInt8 {
    public var storeValue: StoreValue { .blob(self) }
}

extension Array: StoreColumnValue where Element == UInt8 {
    public init?(storeValue: StoreValue) {
        guard case .blob(let bytes) = storeValue else { return nil }
        self = bytes
    }
}

extension Date: StoreArgument, StoreColumnValue {
    public var storeValue: StoreValue { .text(storageText) }
    public init?(storeValue: StoreValue) {
        guard case .text(let text) = storeValue, let date = Date(storageText: text) else { return nil }
        self = date
    }
}

extension Optional: StoreArgument where Wrapped: StoreArgument {
    public var storeValue: StoreValue { self?.storeValue ?? .null }
}

extension Optional: StoreColumnValue where Wrapped: StoreColumnValue {
    public init?(storeValue: StoreValue) {
        if case .null = storeValue {
            self = .none
        } else if let value = Wrapped(storeValue: storeValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}

extension StoreValue: StoreArgument {
    public var storeValue: StoreValue { self }
}
