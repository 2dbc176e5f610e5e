public import JSONCodec

/// The body of `POST /v1/sessions`.
public struct SessionCreateRequest: Decodable, Sendable {
    public var configuration: SessionConfigurationInput?
    public var delegate: DelegateInput?
    public var sessionDescription: String?

    public init(configuration: SessionConfigurationInput? = nil) { self.configuration = configuration }

    /// What the request asks for, validated: configuration, delegate, the client's secret, description.
    public func validated() throws(RequestDecodingError) -> ValidatedSessionRequest {
        let configuration = try (self.configuration ?? SessionConfigurationInput()).normalized()
        var delegate: DelegateConfiguration?
        var secret: String?
        if let input = self.delegate { (delegate, secret) = try input.normalized() }
        if let description = sessionDescription { try Validate.text(description, field: "sessionDescription", maxCharacters: 1024) }
        return ValidatedSessionRequest(
            configuration: configuration, delegate: delegate, clientSecret: secret,
            sessionDescription: sessionDescription)
    }
}

public struct ValidatedSessionRequest: Sendable {
    public var configuration: SessionConfiguration
    public var delegate: DelegateConfiguration?
    /// The secret the client chose; nil when the service must generate one.
    public var clientSecret: String?
    public var sessionDescription: String?
}
