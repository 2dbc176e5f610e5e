import Foundation
import TransferModels

// The row coding of the records the store reads (the records themselves are TransferModels' vocabulary).
extension BlobRecord {
    init(row: StoreRow) throws {
        self.init(
            id: try row.decode(forColumn: "id"), tenant: try row.decode(forColumn: "tenant"), size: try row.decode(forColumn: "size"),
            digest: try row.decode(forColumn: "digest"), createdAt: try row.decode(forColumn: "createdAt"))
        rowid = try row.decode(forColumn: "rowid")
        object = try row.decode(forColumn: "object")
    }
}

extension DelegateDeliveryRecord {
    /// The columns a query of the delegate's state reads (`delegateDelivery(sessionId:)`); `SELECT *`
    /// rows have them too.
    static let columns = """
        lastSequence, delegateCursor, delegateRetryAt, delegateHeldAt, delegateDisabledAt, delegateDeliveredAt,
        delegateFailures, delegateFailedAt, delegateFailureReason
        """

    init(row: StoreRow) throws {
        self.init(
            lastSequence: try row.decode(forColumn: "lastSequence"), cursor: try row.decode(forColumn: "delegateCursor"),
            retryAt: try row.decode(forColumn: "delegateRetryAt"), heldAt: try row.decode(forColumn: "delegateHeldAt"),
            disabledAt: try row.decode(forColumn: "delegateDisabledAt"), deliveredAt: try row.decode(forColumn: "delegateDeliveredAt"),
            failures: try row.decode(forColumn: "delegateFailures"), failedAt: try row.decode(forColumn: "delegateFailedAt"),
            failureReason: try row.decode(forColumn: "delegateFailureReason"))
    }
}
