import NIOCore
import PostgresNIO

/// A statement's arguments as postgres-nio sends them, encoded once for both ways a statement runs: a
/// named statement takes them as they are (`PreparedQuery.execute`), an unnamed one as bindings.
enum PostgresArguments {
    /// Arguments as sent: binary, as `int8`, `float8`, `text` or `bytea` (the types
    /// `PostgresPreparedStatements.numbered` casts a named statement's placeholders to).
    static func data(_ arguments: [StoreValue]) -> [PostgresData] {
        arguments.map { argument in
            var buffer = ByteBuffer()
            switch argument {
            case .null:
                return PostgresData(type: .null, value: nil)
            case .integer(let integer):
                buffer.writeInteger(integer)
                return PostgresData(type: .int8, value: buffer)
            case .real(let real):
                buffer.writeInteger(real.bitPattern)
                return PostgresData(type: .float8, value: buffer)
            case .text(let text):
                buffer.writeString(text)
                return PostgresData(type: .text, value: buffer)
            case .blob(let bytes):
                buffer.writeBytes(bytes)
                return PostgresData(type: .bytea, value: buffer)
            }
        }
    }

    /// A row set's columns as sent: one array each (`PostgresColumnArray`).
    static func data(_ set: StoreRowSet) throws -> [PostgresData] {
        try set.columns.indices.map { index in
            let array = PostgresColumnArray(type: set.columns[index].type, values: set.rows.map { $0[index] })
            var buffer = ByteBuffer()
            try array.encode(into: &buffer, context: .default)
            return PostgresData(type: array.psqlType, value: buffer)
        }
    }

    /// `data` as the bindings of an unnamed statement, which also declare each one's type.
    static func bindings(_ data: [PostgresData]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: data.count)
        for argument in data { bindings.append(argument) }
        return bindings
    }
}
