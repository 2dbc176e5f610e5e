import Foundation
import TransferModels

// `EventRecord`'s row coding, column by column: every webhook, every page of events and every stream frame
// starts from these rows, and the generic row decoder cost a lane's read more than the query did.
extension EventRecord {
    init(row: StoreRow) throws {
        self.init(
            id: try row.decode(forColumn: "id"), sessionId: try row.decode(forColumn: "sessionId"),
            sequence: try row.decode(forColumn: "sequence"), taskId: try row.decode(forColumn: "taskId"),
            type: try row.decodeRawValue(forColumn: "type"),
            timestamp: try row.decode(forColumn: "timestamp"), data: try row.decode(forColumn: "data"))
        rowid = try row.decode(forColumn: "rowid")
        deliveredAt = try row.decode(forColumn: "deliveredAt")
        deliveryAttempts = try row.decode(forColumn: "deliveryAttempts")
        nextAttemptAt = try row.decode(forColumn: "nextAttemptAt")
    }
}
