public import Foundation

/// The session object of the API: a `URLSession` with its id, configuration, delegate and state, and the
/// delegate's delivery health (`delivery`).
public struct TransferSession: Codable, Sendable, Hashable {
    public var id: String
    public var configuration: SessionConfiguration
    public var delegate: DelegateConfiguration?
    public var sessionDescription: String?
    public var state: SessionState
    public var createdAt: Date
    /// The delegate's delivery health; nil without a delegate.
    public var delivery: DelegateDelivery?

    public init(
        id: String, configuration: SessionConfiguration, delegate: DelegateConfiguration?,
        sessionDescription: String?, state: SessionState, createdAt: Date, delivery: DelegateDelivery? = nil
    ) {
        self.id = id
        self.configuration = configuration
        self.delegate = delegate
        self.sessionDescription = sessionDescription
        self.state = state
        self.createdAt = createdAt
        self.delivery = delivery
    }

    enum CodingKeys: String, CodingKey { case id, configuration, delegate, sessionDescription, state, createdAt, delivery }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(configuration, forKey: .configuration)
        try c.encode(delegate, forKey: .delegate)
        try c.encode(sessionDescription, forKey: .sessionDescription)
        try c.encode(state, forKey: .state)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(delivery, forKey: .delivery)
    }
}
