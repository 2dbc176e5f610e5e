import Foundation

/// `data` of the delegate events a running transfer produces, each with the parameters of its URLSession
/// delegate method under their Swift argument names, plus the `task` summary. Optional members are
/// written as explicit nulls: a receiver sees every parameter the method has.

/// `dataTask.didReceiveResponse`: `{"task", "response"}`.
public struct ResponseEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var response: HTTPResponseSnapshot

    public init(task: TaskSummary, response: HTTPResponseSnapshot) {
        self.task = task
        self.response = response
    }
}

/// `task.willPerformHTTPRedirection`: `{"task", "response", "request"}` (the proposed new request).
public struct RedirectEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var response: HTTPResponseSnapshot
    public var request: URLRequestSnapshot

    public init(task: TaskSummary, response: HTTPResponseSnapshot, request: URLRequestSnapshot) {
        self.task = task
        self.response = response
        self.request = request
    }
}

/// `downloadTask.didWriteData`: `{"task", "bytesWritten", "totalBytesWritten", "totalBytesExpectedToWrite"}`.
public struct WriteDataEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var bytesWritten: Int64
    public var totalBytesWritten: Int64
    public var totalBytesExpectedToWrite: Int64

    public init(task: TaskSummary, bytesWritten: Int64, totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        self.task = task
        self.bytesWritten = bytesWritten
        self.totalBytesWritten = totalBytesWritten
        self.totalBytesExpectedToWrite = totalBytesExpectedToWrite
    }
}

/// `task.didSendBodyData`: `{"task", "bytesSent", "totalBytesSent", "totalBytesExpectedToSend"}`.
public struct SendBodyDataEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var bytesSent: Int64
    public var totalBytesSent: Int64
    public var totalBytesExpectedToSend: Int64

    public init(task: TaskSummary, bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        self.task = task
        self.bytesSent = bytesSent
        self.totalBytesSent = totalBytesSent
        self.totalBytesExpectedToSend = totalBytesExpectedToSend
    }
}

/// `dataTask.didReceiveData`, coalesced: `{"task", "data", "length", "totalBytesReceived",
/// "totalBytesExpectedToReceive"}`. `length` bytes arrived since the previous event; `data` is those
/// bytes as base64 when the delegate asked for them (`deliverData`) and they fit its cap, else null (the
/// body is read from `/v1/tasks/{id}/data`, while it arrives or once the task completes).
public struct ReceiveDataEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var length: Int64
    public var totalBytesReceived: Int64
    public var totalBytesExpectedToReceive: Int64
    public var data: [UInt8]?

    public init(
        task: TaskSummary, length: Int64, totalBytesReceived: Int64, totalBytesExpectedToReceive: Int64,
        data: [UInt8]? = nil
    ) {
        self.task = task
        self.length = length
        self.totalBytesReceived = totalBytesReceived
        self.totalBytesExpectedToReceive = totalBytesExpectedToReceive
        self.data = data
    }

    enum CodingKeys: String, CodingKey { case task, data, length, totalBytesReceived, totalBytesExpectedToReceive }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(task, forKey: .task)
        if let data {
            try c.encode(Data(data).base64EncodedString(), forKey: .data)
        } else {
            try c.encodeNil(forKey: .data)
        }
        try c.encode(length, forKey: .length)
        try c.encode(totalBytesReceived, forKey: .totalBytesReceived)
        try c.encode(totalBytesExpectedToReceive, forKey: .totalBytesExpectedToReceive)
    }
}

/// `dataTask.didBecomeDownloadTask`: `{"task", "downloadTask"}` (the same task, now a download).
public struct BecomeDownloadEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var downloadTask: TaskSummary

    public init(task: TaskSummary, downloadTask: TaskSummary) {
        self.task = task
        self.downloadTask = downloadTask
    }
}

/// `downloadTask.didResumeAtOffset`: `{"task", "fileOffset", "expectedTotalBytes"}` (0: started again).
public struct ResumeEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var fileOffset: Int64
    public var expectedTotalBytes: Int64

    public init(task: TaskSummary, fileOffset: Int64, expectedTotalBytes: Int64) {
        self.task = task
        self.fileOffset = fileOffset
        self.expectedTotalBytes = expectedTotalBytes
    }
}

/// `task.willBeginDelayedRequest`: `{"task", "request"}` (the request about to be sent).
public struct DelayedRequestEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var request: URLRequestSnapshot

    public init(task: TaskSummary, request: URLRequestSnapshot) {
        self.task = task
        self.request = request
    }
}

/// `downloadTask.didFinishDownloadingTo`: `{"task", "location"}` (the `/v1/tasks/{id}/file` path).
public struct FinishDownloadingEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var location: String

    public init(task: TaskSummary, location: String) {
        self.task = task
        self.location = location
    }
}

/// `task.completion`, the completion handler's one call: `{"task", "response", "error", "data"}` for data
/// and upload tasks (the body as base64, null when there is none or it is larger than the configured
/// limit — then `dataLocation` names `/v1/tasks/{id}/data`), `{"task", "response", "error", "location"}`
/// for downloads.
public struct CompletionHandlerEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var response: HTTPResponseSnapshot?
    public var error: TransferError?
    public var data: [UInt8]?
    public var dataLocation: String?
    public var location: String?

    public init(
        task: TaskSummary, response: HTTPResponseSnapshot?, error: TransferError?, data: [UInt8]? = nil,
        dataLocation: String? = nil, location: String? = nil
    ) {
        self.task = task
        self.response = response
        self.error = error
        self.data = data
        self.dataLocation = dataLocation
        self.location = location
    }

    enum CodingKeys: String, CodingKey { case task, response, error, data, dataLocation, location }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(task, forKey: .task)
        try c.encode(response, forKey: .response)
        try c.encode(error.map(TransferErrorWire.init), forKey: .error)
        if task.kind == .download {
            try c.encode(location, forKey: .location)
        } else {
            try c.encode(data.map { Data($0).base64EncodedString() }, forKey: .data)
            if let dataLocation { try c.encode(dataLocation, forKey: .dataLocation) }
        }
    }
}
