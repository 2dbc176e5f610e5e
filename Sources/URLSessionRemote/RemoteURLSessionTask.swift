public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// `URLSessionTask`: a transfer the service runs. Its properties follow the session's events (and are read
/// again from the service when the task completes); its methods call the service.
///
/// `@unchecked Sendable`: every mutable property lives in `values`, a `Locked` box; subclasses add no
/// stored mutable state.
public class RemoteURLSessionTask: @unchecked Sendable, CustomStringConvertible {
    /// The service's id of the task (`tsk_…`), stable across client restarts.
    public let identifier: String
    /// `taskIdentifier`: unique within the session, as in URLSession.
    public let taskIdentifier: Int
    /// `progress`: its counts follow the received (or, for uploads, sent) bytes.
    public let progress: Progress

    let core: SessionCore
    let values: Locked<Values>

    struct Values {
        var state: URLSessionTask.State
        var originalRequest: URLRequest?
        var currentRequest: URLRequest?
        var response: URLResponse?
        var error: (any Error)?
        var taskDescription: String?
        var priority: Float
        var earliestBeginDate: Date?
        var countOfBytesSent: Int64 = 0
        var countOfBytesExpectedToSend: Int64 = 0
        var countOfBytesReceived: Int64 = 0
        var countOfBytesExpectedToReceive: Int64 = -1
        var closeCode = 0
        var closeReason: String?
        /// The cancel call of the async API's cancellation (`download(for:)` cancelled by its caller), whose
        /// answer carries the resume data.
        var cancelCall: Task<String?, Never>?
        /// A WebSocket task's last received message's sequence (its `receive` cursor).
        var receivedThrough = 0
    }

    required init(wire: WireTask, core: SessionCore) {
        self.identifier = wire.id
        self.taskIdentifier = wire.taskIdentifier
        self.core = core
        self.progress = Progress(totalUnitCount: -1)
        self.values = Locked(
            Values(
                state: Self.state(named: wire.state), taskDescription: wire.taskDescription,
                priority: Float(wire.priority ?? 0.5)))
        self.update(from: wire)
    }

    public var state: URLSessionTask.State { self.values.withLock { $0.state } }
    public var originalRequest: URLRequest? { self.values.withLock { $0.originalRequest } }
    public var currentRequest: URLRequest? { self.values.withLock { $0.currentRequest } }
    /// The origin's response, once it came: a 404 is a response here, not an error, as in URLSession.
    public var response: URLResponse? { self.values.withLock { $0.response } }
    /// How the task failed (a `URLError` with the service's code and userInfo), or nil.
    public var error: (any Error)? { self.values.withLock { $0.error } }
    public var taskDescription: String? { self.values.withLock { $0.taskDescription } }
    /// 0.0...1.0, as `URLSessionTask.priority` (``RemoteURLSessionTask/defaultPriority`` and friends).
    public var priority: Float { self.values.withLock { $0.priority } }
    public var earliestBeginDate: Date? { self.values.withLock { $0.earliestBeginDate } }
    public var countOfBytesSent: Int64 { self.values.withLock { $0.countOfBytesSent } }
    public var countOfBytesExpectedToSend: Int64 { self.values.withLock { $0.countOfBytesExpectedToSend } }
    public var countOfBytesReceived: Int64 { self.values.withLock { $0.countOfBytesReceived } }
    public var countOfBytesExpectedToReceive: Int64 { self.values.withLock { $0.countOfBytesExpectedToReceive } }

    public static let defaultPriority: Float = 0.5
    public static let lowPriority: Float = 0.25
    public static let highPriority: Float = 0.75

    public var description: String {
        "\(type(of: self))(\(self.identifier), taskIdentifier: \(self.taskIdentifier), state: \(self.state))"
    }

    /// The response for the async API's answer: the origin's, or (never expected once a task succeeded)
    /// an empty one for the request's URL.
    var finalResponse: URLResponse {
        let (response, request) = self.values.withLock { ($0.response, $0.originalRequest) }
        return response
            ?? URLResponse(
                url: request?.url ?? URL(fileURLWithPath: "/"), mimeType: nil, expectedContentLength: -1,
                textEncodingName: nil)
    }

    /// Takes in what the service says the task is now.
    func update(from wire: WireTask) {
        self.values.withLock { values in
            values.state = Self.state(named: wire.state)
            values.originalRequest = wire.originalRequest?.urlRequest ?? values.originalRequest
            values.currentRequest = wire.currentRequest?.urlRequest ?? values.currentRequest
            values.response = wire.response?.httpURLResponse ?? values.response
            values.error = wire.error?.foundationError
            values.taskDescription = wire.taskDescription
            values.priority = Float(wire.priority ?? Double(values.priority))
            values.earliestBeginDate = wire.earliestBeginDate.flatMap(Self.date(from:))
            values.countOfBytesSent = wire.countOfBytesSent ?? values.countOfBytesSent
            values.countOfBytesExpectedToSend = wire.countOfBytesExpectedToSend ?? values.countOfBytesExpectedToSend
            values.countOfBytesReceived = wire.countOfBytesReceived ?? values.countOfBytesReceived
            values.countOfBytesExpectedToReceive =
                wire.countOfBytesExpectedToReceive ?? values.countOfBytesExpectedToReceive
            values.closeCode = wire.closeCode ?? values.closeCode
            values.closeReason = wire.closeReason ?? values.closeReason
        }
        self.updateProgress()
    }

    func updateProgress() {
        let (received, expected) = self.values.withLock { ($0.countOfBytesReceived, $0.countOfBytesExpectedToReceive) }
        self.progress.totalUnitCount = expected
        self.progress.completedUnitCount = received
    }

    static func state(named name: String) -> URLSessionTask.State {
        switch name {
        case "running": .running
        case "canceling": .canceling
        case "completed": .completed
        default: .suspended
        }
    }

    static func date(from text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// The class of a task of `kind`, for tasks the client learns of from events (a background session's).
    static func taskClass(ofKind kind: String) -> RemoteURLSessionTask.Type {
        switch kind {
        case "download": RemoteURLSessionDownloadTask.self
        case "upload": RemoteURLSessionUploadTask.self
        case "data": RemoteURLSessionDataTask.self
        case "webSocket": RemoteURLSessionWebSocketTask.self
        case "stream": RemoteURLSessionStreamTask.self
        default: RemoteURLSessionTask.self
        }
    }
}

/// `URLSessionDataTask`.
public class RemoteURLSessionDataTask: RemoteURLSessionTask, @unchecked Sendable {}

/// `URLSessionUploadTask`.
public final class RemoteURLSessionUploadTask: RemoteURLSessionDataTask, @unchecked Sendable {}

/// `URLSessionDownloadTask`.
public final class RemoteURLSessionDownloadTask: RemoteURLSessionTask, @unchecked Sendable {}
