import GRDB

extension MaintenanceStore {
    /// Whether a write failed because the disk (or the file system holding the database) is full: the
    /// transaction was rolled back whole, and the same write can succeed once space is freed. SQLite says
    /// so by its result codes, PostgreSQL by SQLSTATE 53100 (`disk_full`).
    public static func isDiskFull(_ error: any Error) -> Bool {
        if let error = error as? PostgresStoreError { return error.sqlState == "53100" }
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_FULL || error.extendedResultCode == .SQLITE_IOERR_WRITE
    }
}
