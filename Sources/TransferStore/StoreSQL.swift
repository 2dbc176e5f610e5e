/// Pieces of SQL text, and readings of the rows they select, that several aggregates share.
enum StoreSQL {
    /// The files a row of `SELECT filePath, partialPath` names.
    static func paths(_ row: StoreRow) throws -> [String] {
        [try row.decode(String?.self, forColumn: "filePath"), try row.decode(String?.self, forColumn: "partialPath")].compactMap { $0 }
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ",")
    }
}
