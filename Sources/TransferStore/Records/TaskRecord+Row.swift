import Foundation
import JSONCodec
import TransferModels

// `TaskRecord`'s row coding: the record is the shared vocabulary (TransferModels), its columns are the store's.
extension TaskRecord {
    init(row: StoreRow) throws {
        self.init(
            id: try row.decode(forColumn: "id"), sessionId: try row.decode(forColumn: "sessionId"),
            tenant: try row.decode(forColumn: "tenant"), taskIdentifier: try row.decode(forColumn: "taskIdentifier"),
            kind: try row.decodeRawValue(forColumn: "kind"), state: try row.decodeRawValue(forColumn: "state"),
            createdAt: try row.decode(forColumn: "createdAt"))
        rowid = try row.decode(forColumn: "rowid")
        suspendCount = try row.decode(forColumn: "suspendCount")
        priority = try row.decode(forColumn: "priority")
        taskDescription = try row.decode(forColumn: "taskDescription")
        earliestBeginDate = try row.decode(forColumn: "earliestBeginDate")
        let original: String? = try row.decode(forColumn: "originalRequest")
        let current: String? = try row.decode(forColumn: "currentRequest")
        originalRequest = try StoredJSON.value(URLRequestSnapshot.self, from: original, column: "originalRequest")
        // Without a redirect the two are one text (`columns()` writes it twice): decoded once.
        currentRequest =
            current == original
            ? originalRequest : try StoredJSON.value(URLRequestSnapshot.self, from: current, column: "currentRequest")
        response = try Self.json(row, "response")
        countOfBytesSent = try row.decode(forColumn: "countOfBytesSent")
        countOfBytesExpectedToSend = try row.decode(forColumn: "countOfBytesExpectedToSend")
        countOfBytesReceived = try row.decode(forColumn: "countOfBytesReceived")
        countOfBytesExpectedToReceive = try row.decode(forColumn: "countOfBytesExpectedToReceive")
        countOfBytesClientExpectsToSend = try row.decode(forColumn: "countOfBytesClientExpectsToSend")
        countOfBytesClientExpectsToReceive = try row.decode(forColumn: "countOfBytesClientExpectsToReceive")
        error = try Self.json(row, "error")
        uploadSource = try Self.json(row, "uploadSource")
        completion = try Self.json(row, "completion")
        completionSecret = try row.decode(forColumn: "completionSecret")
        expectedDigest = try row.decode(forColumn: "expectedDigest")
        resumeData = try row.decode(forColumn: "resumeData")
        filePath = try row.decode(forColumn: "filePath")
        fileExpiresAt = try row.decode(forColumn: "fileExpiresAt")
        fileObject = try row.decode(forColumn: "fileObject")
        partialPath = try row.decode(forColumn: "partialPath")
        metrics = try Self.json(row, "metrics")
        segments = try Self.json(row, "segments")
        webSocket = try Self.json(row, "webSocket")
        stream = try Self.json(row, "stream")
        rateLimit = try Self.json(row, "rateLimit")
        sources = try Self.json(row, "sources")
        node = try row.decode(forColumn: "node")
        startedAt = try row.decode(forColumn: "startedAt")
        completedAt = try row.decode(forColumn: "completedAt")
    }

    /// The row's columns as the store writes them (`rowid` only once the row has one): the API's JSON in
    /// JSON columns, enumerations as their raw text, dates as `storageText`.
    func columns() throws -> StoreColumns {
        let original = try StoredJSON.text(originalRequest)
        var columns: StoreColumns = rowid.map { [("rowid", .integer($0))] } ?? []
        columns += [
            ("id", id.storeValue),
            ("sessionId", sessionId.storeValue),
            ("tenant", tenant.storeValue),
            ("taskIdentifier", taskIdentifier.storeValue),
            ("kind", kind.rawValue.storeValue),
            ("state", state.rawValue.storeValue),
            ("suspendCount", suspendCount.storeValue),
            ("priority", priority.storeValue),
            ("taskDescription", taskDescription.storeValue),
            ("earliestBeginDate", earliestBeginDate.storeValue),
            ("originalRequest", (original ?? "null").storeValue),  // the column is NOT NULL
            // Equal until a redirect (every resumed task starts so): encoded once.
            ("currentRequest", (currentRequest == originalRequest ? original : try StoredJSON.text(currentRequest)).storeValue),
            ("response", try StoredJSON.text(response).storeValue),
            ("countOfBytesSent", countOfBytesSent.storeValue),
            ("countOfBytesExpectedToSend", countOfBytesExpectedToSend.storeValue),
            ("countOfBytesReceived", countOfBytesReceived.storeValue),
            ("countOfBytesExpectedToReceive", countOfBytesExpectedToReceive.storeValue),
            ("countOfBytesClientExpectsToSend", countOfBytesClientExpectsToSend.storeValue),
            ("countOfBytesClientExpectsToReceive", countOfBytesClientExpectsToReceive.storeValue),
            ("error", try StoredJSON.text(error).storeValue),
            ("uploadSource", try StoredJSON.text(uploadSource).storeValue),
            ("completion", try StoredJSON.text(completion).storeValue),
            ("completionSecret", completionSecret.storeValue),
            ("expectedDigest", expectedDigest.storeValue),
            ("resumeData", resumeData.storeValue),
            ("filePath", filePath.storeValue),
            ("fileExpiresAt", fileExpiresAt.storeValue),
            ("fileObject", fileObject.storeValue),
            ("partialPath", partialPath.storeValue),
            ("metrics", try StoredJSON.text(metrics).storeValue),
            ("segments", try StoredJSON.text(segments).storeValue),
            ("webSocket", try StoredJSON.text(webSocket).storeValue),
            ("stream", try StoredJSON.text(stream).storeValue),
            ("rateLimit", try StoredJSON.text(rateLimit).storeValue),
            ("sources", try StoredJSON.text(sources).storeValue),
            ("node", node.storeValue),
            ("createdAt", createdAt.storeValue),
            ("startedAt", startedAt.storeValue),
            ("completedAt", completedAt.storeValue),
        ]
        return columns
    }

    private static func json<T: Decodable>(_ row: StoreRow, _ column: String) throws -> T? {
        let text: String? = try row.decode(forColumn: column)
        return try StoredJSON.value(T.self, from: text, column: column)
    }
}

extension StoreRow {
    /// A column holding an enumeration's raw value (a task's `kind` and `state`, an event's `type`); a value
    /// the enumeration does not know is a corrupt column.
    func decodeRawValue<E: RawRepresentable>(_ type: E.Type = E.self, forColumn column: String) throws -> E
    where E.RawValue == String {
        let text: String = try decode(forColumn: column)
        guard let value = E(rawValue: text) else { throw StoredJSON.CorruptValue(column: column) }
        return value
    }
}

/// The JSON of the store's JSON columns: the API's encoding (`WireJSON`) and the strict decoder, so a
/// column reads back exactly as it was written and a corrupt one fails loudly instead of half-decoding.
enum StoredJSON {
    struct CorruptValue: Error, CustomStringConvertible {
        var column: String
        var description: String { "the stored value of column \(column) is not what the store writes" }
    }

    static func text<T: Encodable>(_ value: T?) throws -> String? {
        guard let value else { return nil }
        return String(decoding: try WireJSON.encode(value), as: UTF8.self)
    }

    static func value<T: Decodable>(_ type: T.Type, from text: String?, column: String) throws -> T? {
        guard let text, text != "null" else { return nil }
        do {
            return try StrictJSONDecoder().decode(T.self, from: Array(text.utf8))
        } catch {
            throw CorruptValue(column: column)
        }
    }
}
