import Foundation
import TransferModels

// `EventRecord`'s row coding, column by column: every webhook, every page of events and every stream frame
// starts from these rows, and the generic row decoder cost a lane's read more than the query did.
extension EventRecord {
    init(row: StoreRow) throws {
        let text: String = try row.decode(forColumn: "type")
        guard let type = TaskEventType(rawValue: text) else { throw StoredJSON.CorruptValue(column: "type") }
        self.init(
            id: try row.decode(forColumn: "id"), sessionId: try row.decode(forColumn: "sessionId"),
            sequence: try row.decode(forColumn: "sequence"), taskId: try row.decode(forColumn: "taskId"), type: type,
            timestamp: try row.decode(forColumn: "timestamp"), data: try row.decode(forColumn: "data"))
        rowid = try row.decode(forColumn: "rowid")
        deliveredAt = try row.decode(forColumn: "deliveredAt")
        deliveryAttempts = try row.decode(forColumn: "deliveryAttempts")
        nextAttemptAt = try row.decode(forColumn: "nextAttemptAt")
    }
}
