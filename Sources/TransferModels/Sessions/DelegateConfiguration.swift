public import JSONCodec

/// Where and how a session's delegate events are delivered (the webhook "delegate").
///
/// Without a `url` the delegate lives in the client: nothing is POSTed, the client reads the events
/// (pages, long-polls, server-sent events) and answers the decision events it implements through
/// `POST /v1/sessions/{id}/events/{eventId}/answer`. It has no secret (there is nothing to sign).
public struct DelegateConfiguration: Codable, Sendable, Hashable {
    /// The webhook's address; nil: a delegate in the client process.
    public var url: String?
    /// Event types delivered; `["*"]` for all.
    public var events: [String]
    /// Decision events the delegate implements: the transfer waits for its answer.
    public var decisions: [TaskEventType]
    /// Seconds to wait for a decision before default handling.
    public var decisionTimeout: Double
    /// Minimum seconds between two progress events of one task.
    public var progressInterval: Double
    /// Minimum fraction of a known total between two progress events of one task (0: the interval alone),
    /// so a long transfer sends a few dozen, not one per interval.
    public var progressStep: Double
    /// `dataTask.didReceiveData` carries the bytes (base64), not only their count.
    public var deliverData: Bool
    /// The most body bytes of one task that `deliverData` puts in events; the events past it carry counts.
    public var deliverDataMaxBytes: Int
    /// The signing secret, present only in the response that created the session when the service made it.
    public var secret: String?

    /// `deliverDataMaxBytes` when the client gives none, and the most it may give.
    public static let defaultDeliverDataMaxBytes = 1 << 20
    public static let deliverDataMaxBytesLimit = 16 << 20
    /// Progress coalescing when the client sets none (and for sessions without a delegate, whose events are
    /// polled or followed).
    public static let defaultProgressInterval = 0.5
    public static let defaultProgressStep = 0.05

    public init(
        url: String?, events: [String], decisions: [TaskEventType], decisionTimeout: Double, progressInterval: Double,
        progressStep: Double = Self.defaultProgressStep, deliverData: Bool = false,
        deliverDataMaxBytes: Int = Self.defaultDeliverDataMaxBytes
    ) {
        self.url = url
        self.events = events
        self.decisions = decisions
        self.decisionTimeout = decisionTimeout
        self.progressInterval = progressInterval
        self.progressStep = progressStep
        self.deliverData = deliverData
        self.deliverDataMaxBytes = deliverDataMaxBytes
    }

    enum CodingKeys: String, CodingKey {
        case url, events, decisions, decisionTimeout, progressInterval, progressStep, deliverData, deliverDataMaxBytes, secret
    }

    /// Sessions stored before `deliverData` or `progressStep` existed read back with their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        url = try c.decodeIfPresent(String.self, forKey: .url)
        events = try c.decode([String].self, forKey: .events)
        decisions = try c.decode([TaskEventType].self, forKey: .decisions)
        decisionTimeout = try c.decode(Double.self, forKey: .decisionTimeout)
        progressInterval = try c.decode(Double.self, forKey: .progressInterval)
        progressStep = try c.decodeIfPresent(Double.self, forKey: .progressStep) ?? Self.defaultProgressStep
        deliverData = try c.decodeIfPresent(Bool.self, forKey: .deliverData) ?? false
        deliverDataMaxBytes = try c.decodeIfPresent(Int.self, forKey: .deliverDataMaxBytes) ?? Self.defaultDeliverDataMaxBytes
        secret = try c.decodeIfPresent(String.self, forKey: .secret)
    }

    /// `url` is written even when nil (`"url":null`): the session object shows it, and the store's scan
    /// for delegates with events to POST leaves such rows out by it (`DeliveryStore.webhookDelegate`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(url, forKey: .url)
        try c.encode(events, forKey: .events)
        try c.encode(decisions, forKey: .decisions)
        try c.encode(decisionTimeout, forKey: .decisionTimeout)
        try c.encode(progressInterval, forKey: .progressInterval)
        try c.encode(progressStep, forKey: .progressStep)
        try c.encode(deliverData, forKey: .deliverData)
        try c.encode(deliverDataMaxBytes, forKey: .deliverDataMaxBytes)
        try c.encodeIfPresent(secret, forKey: .secret)
    }

    /// Whether events are POSTed to a webhook (false: the delegate lives in the client).
    public var isWebhook: Bool { url != nil }
}

/// `delegate` as a client sends it.
public struct DelegateInput: Decodable, Sendable {
    public var url: String?
    public var secret: String?
    public var events: [String]?
    public var decisions: [String]?
    public var decisionTimeout: Double?
    public var progressInterval: Double?
    public var progressStep: Double?
    public var deliverData: Bool?
    public var deliverDataMaxBytes: Int?

    public init(url: String?) { self.url = url }

    /// The validated delegate and the secret the client chose (nil: the service generates one for a
    /// webhook). Without `url` the delegate lives in the client, and a secret is refused: nothing is signed.
    public func normalized(at path: String = "delegate") throws(RequestDecodingError) -> (DelegateConfiguration, String?) {
        if let url { try Validate.httpURL(url, field: "\(path).url", maxLength: 2048) }
        if let secret {
            guard url != nil else {
                throw .invalidValue("\(path).secret", "a delegate without url gets no webhooks: there is nothing to sign")
            }
            try WebhookSecret.validate(secret, field: "\(path).secret")
        }
        let events = self.events ?? ["*"]
        guard events.count <= 64 else { throw .invalidValue("\(path).events", "at most 64 entries") }
        for (index, event) in events.enumerated() where event != "*" && TaskEventType(rawValue: event) == nil {
            throw .invalidValue("\(path).events[\(index)]", "is not an event type (or \"*\")")
        }
        var decisions: [TaskEventType] = []
        for (index, name) in (self.decisions ?? []).enumerated() {
            guard let type = TaskEventType(rawValue: name), type.isDecision else {
                let names = TaskEventType.allCases.filter(\.isDecision).map(\.rawValue).joined(separator: ", ")
                throw .invalidValue("\(path).decisions[\(index)]", "must be one of: \(names)")
            }
            if !decisions.contains(type) { decisions.append(type) }
        }
        let timeout = decisionTimeout ?? 10
        guard timeout.isFinite, timeout > 0, timeout <= 300 else {
            throw .invalidValue("\(path).decisionTimeout", "must be greater than 0 and at most 300 seconds")
        }
        let interval = progressInterval ?? DelegateConfiguration.defaultProgressInterval
        guard interval.isFinite, interval >= 0, interval <= 3600 else {
            throw .invalidValue("\(path).progressInterval", "must be between 0 and 3600 seconds")
        }
        let step = progressStep ?? DelegateConfiguration.defaultProgressStep
        guard step.isFinite, step >= 0, step <= 1 else {
            throw .invalidValue("\(path).progressStep", "must be a fraction between 0 and 1")
        }
        let maxBytes = deliverDataMaxBytes ?? DelegateConfiguration.defaultDeliverDataMaxBytes
        guard maxBytes >= 1, maxBytes <= DelegateConfiguration.deliverDataMaxBytesLimit else {
            throw .invalidValue(
                "\(path).deliverDataMaxBytes", "must be between 1 and \(DelegateConfiguration.deliverDataMaxBytesLimit) bytes")
        }
        let delegate = DelegateConfiguration(
            url: url, events: events, decisions: decisions, decisionTimeout: timeout, progressInterval: interval,
            progressStep: step, deliverData: deliverData ?? false, deliverDataMaxBytes: maxBytes)
        return (delegate, secret)
    }
}
