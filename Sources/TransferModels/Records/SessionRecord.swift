public import Foundation
public import JSONCodec

/// A row of `session`: a `URLSession` of one tenant.
public struct SessionRecord: Codable, Sendable, Hashable {
    /// Insertion order, used for pagination cursors.
    public var rowid: Int64?
    public var id: String
    public var tenant: String
    public var kind: SessionKind
    public var identifier: String?
    /// The tenant's `URLSession.shared`, made on first use.
    public var isShared: Bool
    public var configuration: SessionConfiguration
    public var delegate: DelegateConfiguration?
    /// The delegate's signing secret, sealed with the store's `SecretBox` (never stored in clear).
    public var delegateSecret: Data?
    public var sessionDescription: String?
    public var state: SessionState
    /// The `sequence` of the session's newest event (0: none yet).
    public var lastSequence: Int64
    /// The `taskIdentifier` of the session's newest task (0: none yet).
    public var lastTaskIdentifier: Int64
    public var createdAt: Date
    public var invalidatedAt: Date?

    public init(
        id: String, tenant: String, configuration: SessionConfiguration, delegate: DelegateConfiguration?,
        delegateSecret: Data?, sessionDescription: String?, isShared: Bool = false, createdAt: Date = .nowMilliseconds
    ) {
        self.id = id
        self.tenant = tenant
        self.kind = configuration.kind
        self.identifier = configuration.identifier
        self.isShared = isShared
        self.configuration = configuration
        self.delegate = delegate
        self.delegateSecret = delegateSecret
        self.sessionDescription = sessionDescription
        self.state = .valid
        self.lastSequence = 0
        self.lastTaskIdentifier = 0
        self.createdAt = createdAt
    }

    /// The API's view of the row (never the secret, a credential in `httpAdditionalHeaders` nor the SOCKS login), with its
    /// delegate's `delivery` as read from the row (`TransferStore.delegateDelivery(sessionId:)`); a session
    /// without a webhook delegate (none, or one in the client: nothing is POSTed) shows none whatever is given.
    public func wire(delivery: DelegateDeliveryRecord?) -> TransferSession {
        var delegate = self.delegate
        delegate?.secret = nil
        var configuration = self.configuration
        configuration.httpAdditionalHeaders = Redaction.fields(configuration.httpAdditionalHeaders)
        configuration.connectionProxyDictionary = configuration.connectionProxyDictionary?.withoutSOCKSLogin
        return TransferSession(
            id: id, configuration: configuration, delegate: delegate, sessionDescription: sessionDescription,
            state: state, createdAt: createdAt, delivery: delegate?.isWebhook == true ? delivery?.wire : nil)
    }
}
