public import Foundation

/// The session object of the API: a `URLSession` with its id, configuration, delegate and state.
public struct TransferSession: Codable, Sendable, Hashable {
    public var id: String
    public var configuration: SessionConfiguration
    public var delegate: DelegateConfiguration?
    public var sessionDescription: String?
    public var state: SessionState
    public var createdAt: Date

    public init(
        id: String, configuration: SessionConfiguration, delegate: DelegateConfiguration?,
        sessionDescription: String?, state: SessionState, createdAt: Date
    ) {
        self.id = id
        self.configuration = configuration
        self.delegate = delegate
        self.sessionDescription = sessionDescription
        self.state = state
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey { case id, configuration, delegate, sessionDescription, state, createdAt }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(configuration, forKey: .configuration)
        try c.encode(delegate, forKey: .delegate)
        try c.encode(sessionDescription, forKey: .sessionDescription)
        try c.encode(state, forKey: .state)
        try c.encode(createdAt, forKey: .createdAt)
    }
}
