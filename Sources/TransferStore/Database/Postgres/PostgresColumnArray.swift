import NIOCore
import PostgresNIO

/// One column of a `StoreRowSet` as a PostgreSQL array in the binary format (`unnest` reads it back as
/// rows). postgres-nio's arrays cannot hold null, which a set's columns often do: one dimension, its
/// elements as the column's type says, a null element as length -1.
struct PostgresColumnArray: PostgresThrowingDynamicTypeEncodable {
    let type: StoreRowSet.ColumnType
    let values: [StoreValue]

    var psqlType: PostgresDataType {
        switch type {
        case .text: .textArray
        case .integer: .int8Array
        case .real: .float8Array
        case .blob: .byteaArray
        }
    }

    var psqlFormat: PostgresFormat { .binary }

    private var elementType: PostgresDataType {
        switch type {
        case .text: .text
        case .integer: .int8
        case .real: .float8
        case .blob: .bytea
        }
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) throws {
        buffer.writeInteger(values.isEmpty ? 0 : 1, as: Int32.self)  // dimensions
        buffer.writeInteger(values.contains(.null) ? 1 : 0, as: Int32.self)  // has nulls
        buffer.writeInteger(elementType.rawValue)
        guard !values.isEmpty else { return }
        buffer.writeInteger(Int32(values.count))  // the dimension's length
        buffer.writeInteger(1, as: Int32.self)  // its lower bound
        for value in values {
            switch (type, value) {
            case (_, .null):
                buffer.writeInteger(-1, as: Int32.self)
            case (.text, .text(let text)):
                buffer.writeInteger(Int32(text.utf8.count))
                buffer.writeString(text)
            case (.integer, .integer(let integer)):
                buffer.writeInteger(8, as: Int32.self)
                buffer.writeInteger(integer)
            case (.real, .real(let real)):
                buffer.writeInteger(8, as: Int32.self)
                buffer.writeInteger(real.bitPattern)
            case (.real, .integer(let integer)):
                buffer.writeInteger(8, as: Int32.self)
                buffer.writeInteger(Double(integer).bitPattern)
            case (.blob, .blob(let bytes)):
                buffer.writeInteger(Int32(bytes.count))
                buffer.writeBytes(bytes)
            default:
                throw StoreRowError(column: "\(type)", problem: "a row set's value \(value) is not of its column's type")
            }
        }
    }
}
