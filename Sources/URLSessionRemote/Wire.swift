internal import Foundation

// The service's JSON, decoded with URLSession's names (openapi.yaml). Only what the library reads.

/// `Task` of openapi.yaml.
struct WireTask: Decodable, Sendable {
    var id: String
    var sessionId: String
    var taskIdentifier: Int
    var kind: String
    var state: String
    var priority: Double?
    var taskDescription: String?
    var earliestBeginDate: String?
    var originalRequest: WireRequest?
    var currentRequest: WireRequest?
    var response: WireResponse?
    var countOfBytesSent: Int64?
    var countOfBytesExpectedToSend: Int64?
    var countOfBytesReceived: Int64?
    var countOfBytesExpectedToReceive: Int64?
    var error: WireError?
    var location: String?
    /// WebSocket tasks: the close handshake's code (0 until the connection ended) and reason.
    var closeCode: Int?
    var closeReason: String?
}

/// `TaskSummary`: the task fields on every task event.
struct WireTaskSummary: Decodable, Sendable {
    var id: String
    var taskIdentifier: Int
    var kind: String
    var state: String
    var taskDescription: String?
}

/// A `URLRequest` as the service shows it.
struct WireRequest: Decodable, Sendable {
    var url: String
    var httpMethod: String?
    var allHTTPHeaderFields: [String: String]?
    var timeoutInterval: Double?
    /// Shown as `{"base64": ...}` (a redirect's proposed request keeps a 307's body, for instance).
    var httpBody: Body?

    struct Body: Decodable, Sendable {
        var base64: String?
    }
}

/// `Response`: an `HTTPURLResponse`.
struct WireResponse: Decodable, Sendable {
    var url: String
    var statusCode: Int
    var allHeaderFields: [String: String]
}

/// `TransferError`: an NSError in `NSURLErrorDomain`.
struct WireError: Decodable, Sendable {
    var domain: String
    var code: Int
    var name: String?
    var localizedDescription: String?
    var userInfo: [String: JSONValue]?
    var underlying: JSONValue?
}

/// `Session` (only its id and state).
struct WireSession: Decodable, Sendable {
    var id: String
    var state: String
}

/// `CancelResponse`.
struct WireCancelResponse: Decodable, Sendable {
    var task: WireTask
    var resumeData: String?
}

/// `{"items": [...], "nextCursor": ...}`.
struct WirePage<Item: Decodable & Sendable>: Decodable, Sendable {
    var items: [Item]
    var nextCursor: String?
    /// A session's event list only: the sequence of its newest event when the page was read.
    var lastSequence: Int?
}

/// `Event`: one delegate callback, with every parameter the library reads as an optional.
struct WireEvent: Decodable, Sendable {
    var id: String
    var type: String
    var sequence: Int
    var taskId: String?
    var data: Parameters

    struct Parameters: Decodable, Sendable {
        var task: WireTaskSummary?
        var bytesWritten: Int64?
        var totalBytesWritten: Int64?
        var totalBytesExpectedToWrite: Int64?
        var bytesSent: Int64?
        var totalBytesSent: Int64?
        var totalBytesExpectedToSend: Int64?
        var length: Int64?
        var totalBytesReceived: Int64?
        var totalBytesExpectedToReceive: Int64?
        var fileOffset: Int64?
        var expectedTotalBytes: Int64?
        var location: String?
        var response: WireResponse?
        var request: WireRequest?
        var error: WireError?
        var metrics: JSONValue?
        var challenge: WireChallenge?
        var proposedResponse: WireCachedResponse?
    }
}

/// `AuthenticationChallenge` (without the server trust's chain, which the library does not show).
struct WireChallenge: Decodable, Sendable {
    var protectionSpace: ProtectionSpace
    var previousFailureCount: Int?
    var failureResponse: WireResponse?
    var proposedCredential: ProposedCredential?

    struct ProtectionSpace: Decodable, Sendable {
        var host: String
        var port: Int
        var `protocol`: String?
        var realm: String?
        var authenticationMethod: String
        var isProxy: Bool?
    }

    /// The stored credential the default handling would use, without its secret.
    struct ProposedCredential: Decodable, Sendable {
        var user: String?
        var persistence: String?
    }
}

/// `CachedResponse`: a `dataTask.willCacheResponse` proposal.
struct WireCachedResponse: Decodable, Sendable {
    var response: WireResponse
    var storagePolicy: String
    /// The body as base64 when it is at most 64 KiB.
    var data: String?
}

/// `WebSocketMessage`: a received message, text or binary (base64).
struct WireWebSocketMessage: Decodable, Sendable {
    var sequence: Int
    var string: String?
    var data: String?
}
