public import JSONCodec

/// The body of `PATCH /v1/sessions/{id}`, a JSON merge patch (RFC 7396) of the session object: a member
/// left out is unchanged, `null` removes it (the delegate, the description; a delegate's optional
/// fields go back to their defaults), a value replaces it. Only `delegate` and `sessionDescription` may
/// change; the session's other members are fixed at creation (422 naming them).
public struct SessionUpdateRequest: Decodable, Sendable {
    public var delegate: Nullable<DelegatePatch>
    public var sessionDescription: Nullable<String>
    // The session object's other members, accepted by the decoder only to be refused by name.
    var id: Nullable<JSONValue>
    var configuration: Nullable<JSONValue>
    var state: Nullable<JSONValue>
    var createdAt: Nullable<JSONValue>

    /// The change this patch makes to a session whose delegate is `current`.
    public func validated(current: DelegateConfiguration?) throws(RequestDecodingError) -> SessionUpdate {
        for (name, member) in [("id", id), ("configuration", configuration), ("state", state), ("createdAt", createdAt)] {
            if case .absent = member { continue }
            throw .invalidValue(name, "cannot be changed: create a new session for another \(name)")
        }
        var update = SessionUpdate()
        switch delegate {
        case .absent: break
        case .null: update.delegate = .removed
        case .value(let patch):
            let (merged, secret) = try patch.applied(to: current)
            update.delegate = .replaced(merged, secret: secret)
        }
        if case .value(let description) = sessionDescription {
            try Validate.text(description, field: "sessionDescription", maxCharacters: 1024)
        }
        update.sessionDescription = sessionDescription
        return update
    }
}

/// `delegate` in a session patch: members left out keep their current values, `null` restores a
/// member's default. `url: null` moves the delegate into the client (its events are read, its decisions
/// answered through the API) and its secret goes; a `url` given to a delegate that had none makes it a
/// webhook again, with a new secret (the client's, or a generated one shown once). A patch of a session
/// without a delegate makes one from the patch, as creation would.
public struct DelegatePatch: Decodable, Sendable {
    public var url: Nullable<String>
    public var secret: Nullable<String>
    public var events: Nullable<[String]>
    public var decisions: Nullable<[String]>
    public var decisionTimeout: Nullable<Double>
    public var progressInterval: Nullable<Double>
    public var progressStep: Nullable<Double>
    public var deliverData: Nullable<Bool>
    public var deliverDataMaxBytes: Nullable<Int>

    /// The delegate after the patch, validated as on creation, and the secret the client gave (nil: keep
    /// the stored one, or generate one for a session that had no delegate).
    func applied(to current: DelegateConfiguration?) throws(RequestDecodingError) -> (DelegateConfiguration, String?) {
        var input = DelegateInput(url: current?.url)
        input.events = current?.events
        input.decisions = current?.decisions.map(\.rawValue)
        input.decisionTimeout = current?.decisionTimeout
        input.progressInterval = current?.progressInterval
        input.progressStep = current?.progressStep
        input.deliverData = current?.deliverData
        input.deliverDataMaxBytes = current?.deliverDataMaxBytes
        Self.merge(url, into: &input.url)
        Self.merge(events, into: &input.events)
        Self.merge(decisions, into: &input.decisions)
        Self.merge(decisionTimeout, into: &input.decisionTimeout)
        Self.merge(progressInterval, into: &input.progressInterval)
        Self.merge(progressStep, into: &input.progressStep)
        Self.merge(deliverData, into: &input.deliverData)
        Self.merge(deliverDataMaxBytes, into: &input.deliverDataMaxBytes)
        switch secret {
        case .absent: break
        case .null: throw .invalidValue("delegate.secret", "cannot be removed: give a new secret to rotate it")
        case .value(let value): input.secret = value
        }
        return try input.normalized(at: "delegate")
    }

    private static func merge<Value>(_ patch: Nullable<Value>, into value: inout Value?) {
        switch patch {
        case .absent: break
        case .null: value = nil
        case .value(let new): value = new
        }
    }
}

/// What a session patch changes.
public struct SessionUpdate: Sendable {
    public enum Delegate: Sendable {
        case unchanged
        case removed
        /// The new delegate, and the secret the client chose (nil: keep the stored one, if any).
        case replaced(DelegateConfiguration, secret: String?)
    }

    public var delegate: Delegate = .unchanged
    public var sessionDescription: Nullable<String> = .absent

    public init() {}
}
