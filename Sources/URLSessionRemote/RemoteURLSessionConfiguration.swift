public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// `URLSessionConfiguration` for a session the service runs: the same properties, plus the ``connection``.
///
/// A property left nil takes URLSession's default for the ``kind``, as the service fills it in (a background
/// session waits for connectivity, for instance). The service keeps the configuration it was created with:
/// change it by making another session, as with URLSession.
public struct RemoteURLSessionConfiguration: Sendable {
    /// `default`, `ephemeral` or `background`, as URLSessionConfiguration's three constructors.
    public enum Kind: String, Sendable, Hashable {
        case `default`, ephemeral, background
    }

    /// `tls_protocol_version_t`'s versions, by the service's names.
    public enum TLSVersion: String, Sendable, Hashable {
        case tlsV10 = "TLSv10"
        case tlsV11 = "TLSv11"
        case tlsV12 = "TLSv12"
        case tlsV13 = "TLSv13"
    }

    /// Which storage holds the session's cookies or credentials: the tenant's persistent one (`shared`, as
    /// `HTTPCookieStorage.shared`), the session's own (`private`; in memory for an ephemeral session), or none.
    public enum StorageScope: String, Sendable, Hashable {
        case shared, `private`, none
    }

    /// The service that runs the session's transfers.
    public var connection: RemoteConnection
    public var kind: Kind
    /// A background session's identifier: the service keeps one session per identifier and tenant, so a
    /// client that restarts and makes the session again re-attaches to it.
    public var identifier: String?
    public var httpAdditionalHeaders: [String: String]?
    public var timeoutIntervalForRequest: TimeInterval?
    public var timeoutIntervalForResource: TimeInterval?
    public var httpMaximumConnectionsPerHost: Int?
    public var httpShouldUsePipelining: Bool?
    public var requestCachePolicy: URLRequest.CachePolicy?
    public var httpShouldSetCookies: Bool?
    public var httpCookieAcceptPolicy: HTTPCookie.AcceptPolicy?
    public var allowsCellularAccess: Bool?
    public var allowsExpensiveNetworkAccess: Bool?
    public var allowsConstrainedNetworkAccess: Bool?
    public var waitsForConnectivity: Bool?
    public var isDiscretionary: Bool?
    public var sessionSendsLaunchEvents: Bool?
    public var tlsMinimumSupportedProtocolVersion: TLSVersion?
    public var tlsMaximumSupportedProtocolVersion: TLSVersion?
    /// `httpCookieStorage`: which cookie storage, rather than a storage object.
    public var httpCookieStorage: StorageScope?
    /// `urlCredentialStorage`: which credential storage, rather than a storage object.
    public var urlCredentialStorage: StorageScope?
    /// Beyond URLSession: at most how often (seconds) the delegate hears a task's progress
    /// (`didWriteData`, `didReceive`, `didSendBodyData`); 0: every report of the transfer. URLSession calls
    /// these as bytes move, which over a network would flood the client, so the service coalesces them;
    /// nil: its default, 0.5 s. The last call before the completion always carries the final totals.
    public var progressInterval: TimeInterval?
    /// Beyond URLSession: at least what fraction of a known total moves between two progress calls, besides
    /// `progressInterval`; 0: no such bound; nil: the service's default, 0.05.
    public var progressStep: Double?
    /// Where a background session remembers the last event its delegate handled, so that after a restart
    /// the delegate hears each event once (URLSession keeps this in the app's container). Nil: the user's
    /// caches directory, under `URLSessionRemote`.
    public var stateDirectory: URL?

    public init(connection: RemoteConnection, kind: Kind = .default, identifier: String? = nil) {
        self.connection = connection
        self.kind = kind
        self.identifier = identifier
    }

    /// `URLSessionConfiguration.default` against `connection`.
    public static func `default`(_ connection: RemoteConnection = .environment()) -> Self {
        Self(connection: connection)
    }

    /// `URLSessionConfiguration.ephemeral`: private cookies, cache and credentials, in memory.
    public static func ephemeral(_ connection: RemoteConnection = .environment()) -> Self {
        Self(connection: connection, kind: .ephemeral)
    }

    /// `URLSessionConfiguration.background(withIdentifier:)`.
    public static func background(withIdentifier identifier: String, connection: RemoteConnection = .environment())
        -> Self
    {
        Self(connection: connection, kind: .background, identifier: identifier)
    }
}
