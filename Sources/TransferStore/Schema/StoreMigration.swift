/// One change of the schema, under the identifier both backends record once it is applied: its steps in
/// order, most of them the same SQL for both (`shared`), a few where the dialects truly differ.
struct StoreMigration: Sendable {
    /// A statement of the migration, and which backends run it.
    enum Step: Sendable {
        /// The same statement on both backends, its types spelled per dialect.
        case shared(SchemaSQL)
        /// A statement only SQLite runs: a trigger in its syntax, an index over a boolean as it reads one.
        case sqlite(String)
        /// A statement only PostgreSQL runs: plpgsql functions and their triggers, what only several
        /// nodes on one database need.
        case postgres(String)
        /// A data fix-up that SQLite files older than the migration need (rows written before it). A
        /// PostgreSQL database is never that old: its support came later, and each of these migrations
        /// found its tables empty there.
        case sqliteData(String)
    }

    let identifier: String
    let steps: [Step]

    init(_ identifier: String, _ steps: [Step]) {
        self.identifier = identifier
        self.steps = steps
    }

    /// The statements `dialect` runs, in order.
    func statements(for dialect: SchemaDialect) -> [String] {
        steps.compactMap { step in
            switch (step, dialect) {
            case (.shared(let statement), _): statement.sql(for: dialect)
            case (.sqlite(let sql), .sqlite), (.sqliteData(let sql), .sqlite), (.postgres(let sql), .postgres): sql
            case (.sqlite, .postgres), (.sqliteData, .postgres), (.postgres, .sqlite): nil
            }
        }
    }
}
