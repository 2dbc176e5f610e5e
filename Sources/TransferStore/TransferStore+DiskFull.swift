import GRDB

extension TransferStore {
    /// Whether a write failed because the disk (or the file system holding the data directory) is full:
    /// SQLite rolled the transaction back whole, and the same write can succeed once space is freed.
    public static func isDiskFull(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_FULL || error.extendedResultCode == .SQLITE_IOERR_WRITE
    }
}
