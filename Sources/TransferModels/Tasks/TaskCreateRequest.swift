public import Foundation
public import JSONCodec

/// The body of `POST /v1/sessions/{id}/tasks`: `dataTask(with:)`, `downloadTask(with:)`,
/// `downloadTask(withResumeData:)`, `uploadTask(with:fromFile:)` and `uploadTask(with:from:)` in one shape.
public struct TaskCreateRequest: Decodable, Sendable, Hashable {
    public var kind: TaskKind?
    public var request: URLRequestInput?
    public var uploadSource: UploadSourceInput?
    public var resumeData: String?
    public var taskDescription: String?
    public var priority: Double?
    public var earliestBeginDate: Date?
    public var countOfBytesClientExpectsToSend: Int64?
    public var countOfBytesClientExpectsToReceive: Int64?
    public var completion: CompletionHandlerInput?
    public var expectedDigest: String?
    public var resume: Bool?
    /// A segmented download (beyond URLSession); download tasks only.
    public var segments: SegmentsInput?
    /// A webSocket task's subprotocols, offered in this order (`webSocketTask(with:protocols:)`).
    public var protocols: [String]?
    /// A webSocket task's `maximumMessageSize` (default 1 MiB, as URLSession's).
    public var maximumMessageSize: Int?
    /// A stream task's host (`streamTask(withHostName:port:)`): a DNS name or an IP literal.
    public var hostName: String?
    /// A stream task's port, 1…65535.
    public var port: Int?
    /// The task's bandwidth limit (beyond URLSession); data, download and upload tasks.
    public var rateLimit: RateLimitInput?
    /// A download's other URLs, the request's first (beyond URLSession; `TaskCreateRequest+Mirrors`).
    public var mirrors: [String]?
    public var expectedLength: Int64?
    /// A Metalink 4 document instead of `request.url`: `{"url"}` or `{"blobId"}`.
    public var metalink: MetalinkInput?

    public init(kind: TaskKind? = nil, request: URLRequestInput? = nil) {
        self.kind = kind
        self.request = request
    }

    /// The largest `resumeData` accepted: it is ours (made by a cancel), so anything bigger is not.
    public static let maximumResumeDataLength = 65_536

    /// What the request asks for with every default filled in, or the first invalid field.
    ///
    /// Cross-field rules JSON Schema cannot say: `request` is required except for a download made from
    /// `resumeData`, which takes its request from the resume data and so must not carry one;
    /// `uploadSource` is required for uploads and refused otherwise, and an upload's body comes from it,
    /// never from `request.httpBody`; `resumeData` and `segments` are for downloads only. A download
    /// without `segments` takes the session's (absent or null: the session's default applies).
    ///
    /// - Parameters:
    ///   - session: the configuration request fields fall back to.
    ///   - allowedSchemes: URL schemes accepted for `request.url` (http and https unless widened).
    ///   - metalink: the contents of a `metalink.blobId` document, read by the caller.
    public func validated(
        session: SessionConfiguration, allowedSchemes: Set<String> = URLRequestInput.webSchemes,
        metalink contents: MetalinkContents? = nil
    ) throws(RequestDecodingError) -> ValidatedTaskRequest {
        guard let kind else { throw .missingField("kind") }
        let webSocket = try validatedWebSocket(session: session)
        let stream = try validatedStream(session: session)

        if let resumeData {
            guard kind == .download else {
                throw .invalidValue("resumeData", "only download tasks resume from resumeData")
            }
            guard (1...Self.maximumResumeDataLength).contains(resumeData.utf8.count) else {
                throw .invalidValue("resumeData", "must be 1 to \(Self.maximumResumeDataLength) bytes")
            }
            if request != nil {
                throw .invalidValue("request", "a download made from resumeData takes its request from the resume data")
            }
        }
        var snapshot: URLRequestSnapshot?
        if let request = try requestWithSources(metalink: contents) {
            snapshot = try request.validated(
                at: "request", kind: kind, session: session,
                allowedSchemes: kind == .webSocket ? Self.webSocketSchemes : allowedSchemes)
            // `uploadTask(with:from:)` ignores the request's body: the upload source is what is sent.
            if kind == .upload { snapshot?.httpBody = nil }
        } else if resumeData == nil && kind != .stream {
            throw .missingField("request")
        }

        var uploadBody: UploadBody?
        switch (kind, uploadSource) {
        case (.upload, nil): throw .missingField("uploadSource", "is required for upload tasks")
        case (.upload, let source?):
            let (body, impliedType) = try source.validated(at: "uploadSource")
            if body == .stream && session.kind == .background {
                // URLSession's background sessions upload from files only (a blob here).
                throw .invalidValue("uploadSource.stream", "background sessions upload from a blob, not a stream")
            }
            uploadBody = body
            if let impliedType, snapshot?.value(forHTTPHeaderField: "Content-Type") == nil {
                snapshot?.allHTTPHeaderFields["Content-Type"] = impliedType
            }
        case (_, .some): throw .invalidValue("uploadSource", "only upload tasks have an upload source")
        case (_, nil): break
        }

        if let taskDescription { try Validate.text(taskDescription, field: "taskDescription", maxCharacters: 1024) }
        let priority = self.priority ?? TaskPriority.default
        guard priority.isFinite, (0...1).contains(priority) else {
            throw .invalidValue("priority", "must be between 0 and 1 (low 0.25, default 0.5, high 0.75)")
        }
        let toSend = countOfBytesClientExpectsToSend ?? -1
        try Validate.range(toSend, -1...Int64.max, field: "countOfBytesClientExpectsToSend")
        let toReceive = countOfBytesClientExpectsToReceive ?? -1
        try Validate.range(toReceive, -1...Int64.max, field: "countOfBytesClientExpectsToReceive")

        var handler: TaskCompletionHandler?
        var completionSecret: String?
        if let completion { (handler, completionSecret) = try completion.validated(at: "completion") }
        var digest: String?
        if let expectedDigest { digest = try Validate.sha256Digest(expectedDigest, field: "expectedDigest") }
        var segmentsInEffect = kind == .download ? session.segments : nil
        if let segments {
            guard kind == .download else { throw .invalidValue("segments", "only download tasks are segmented") }
            segmentsInEffect = try segments.validated(at: "segments")
        }

        let sources = try validatedSources(kind: kind, requestURL: snapshot?.url, metalink: contents, digest: &digest)
        var validated = ValidatedTaskRequest(
            kind: kind, request: snapshot, uploadBody: uploadBody, resumeData: resumeData,
            taskDescription: taskDescription, priority: priority, earliestBeginDate: earliestBeginDate,
            countOfBytesClientExpectsToSend: toSend, countOfBytesClientExpectsToReceive: toReceive,
            completion: handler, completionSecret: completionSecret, expectedDigest: digest, resume: resume ?? false,
            segments: segmentsInEffect, webSocket: webSocket, stream: stream)
        if let rateLimit {
            guard kind.isRateLimited else {
                throw .invalidValue("rateLimit", "only data, download and upload tasks have a rate limit")
            }
            validated.rateLimit = try rateLimit.validated(at: "rateLimit")
        }
        validated.sources = sources
        return validated
    }
}

/// `uploadSource` as a client sends it: exactly one of `{"blob": "blb_..."}` (`uploadTask(with:fromFile:)`),
/// `{"data": {"text" | "base64" | "json": ...}}` (`uploadTask(with:from:)`) or `{"stream": true}`
/// (`uploadTask(withStreamedRequest:)`: the body comes through `PUT /v1/tasks/{id}/body`).
public struct UploadSourceInput: Decodable, Sendable, Hashable {
    public var blob: String?
    public var data: HTTPBodyInput?
    public var stream: Bool?

    public init(blob: String? = nil, data: HTTPBodyInput? = nil, stream: Bool? = nil) {
        self.blob = blob
        self.data = data
        self.stream = stream
    }

    /// The body and the `Content-Type` its form implies (a `json` body), or the first invalid field.
    /// Whether the blob exists is the store's question (404 `uploadSource.blob`).
    public func validated(at path: String) throws(RequestDecodingError) -> (UploadBody, impliedContentType: String?) {
        if let stream {
            guard stream else { throw .invalidValue("\(path).stream", "must be true when given") }
            guard blob == nil, data == nil else {
                throw .invalidValue(path, "must have exactly one of \"blob\", \"data\" or \"stream\"")
            }
            return (.stream, nil)
        }
        switch (blob, data) {
        case (let id?, nil):
            guard ResourceID.isWellFormed(id, prefix: "blb") else {
                throw .invalidValue("\(path).blob", "is not a blob id")
            }
            return (.blob(id: id), nil)
        case (nil, let body?):
            return (.data(try body.bytes(field: "\(path).data")), body.impliedContentType)
        default:
            throw .invalidValue(path, "must have exactly one of \"blob\", \"data\" or \"stream\"")
        }
    }
}

/// `completion` as a client sends it: the completion-handler form of a task.
public struct CompletionHandlerInput: Decodable, Sendable, Hashable {
    public var url: String?
    public var secret: String?

    public init(url: String? = nil, secret: String? = nil) {
        self.url = url
        self.secret = secret
    }

    /// The handler and the client's signing secret (nil: the session delegate's secret signs it).
    public func validated(at path: String) throws(RequestDecodingError) -> (TaskCompletionHandler, String?) {
        guard let url else { throw .missingField("\(path).url") }
        try Validate.httpURL(url, field: "\(path).url", maxLength: 2048)
        if let secret { try WebhookSecret.validate(secret, field: "\(path).secret") }
        return (TaskCompletionHandler(url: url), secret)
    }
}
