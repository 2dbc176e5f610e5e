public import Curl
public import Foundation
public import TransferModels

/// How the transfer engine runs.
public struct EngineConfiguration: Sendable {
    /// Transfers running at once across every session (`URLSESSIOND_MAX_TRANSFERS`).
    public var maximumConcurrentTransfers = 64
    /// Transfers one tenant may run at once (`URLSESSIOND_TENANT_MAX_TRANSFERS`); nil: half of
    /// `maximumConcurrentTransfers`, so one tenant's backlog always leaves room for the others.
    public var maximumTransfersPerTenant: Int?
    /// Connections libcurl keeps open for reuse per engine loop.
    public var maximumCachedConnections = 256
    /// WebSocket connections open at once (each holds a socket and its buffers); jobs beyond wait in order.
    public var maximumWebSockets = 1024
    /// A data task's body stays in memory up to this size, then spills to a file.
    public var dataBodyMemoryLimit = 1 << 20
    /// A download stays in memory up to this size (the store then keeps it, as it keeps small data
    /// bodies: no file is created for it), and goes to its `.part` file past it. Small, because only a
    /// file can be checkpointed and continued after a restart. Matches the task service's `keptBodyLimit`.
    public var downloadMemoryLimit = 64 * 1024
    /// Where downloads and spilled bodies are written (`<data>/downloads`).
    public var downloadsDirectory = URL(fileURLWithPath: "./data/downloads") {
        didSet { downloadsPath = downloadsDirectory.path }
    }
    /// `downloadsDirectory`'s path, made once: building a URL per transfer showed in the small-task profile.
    private(set) var downloadsPath = URL(fileURLWithPath: "./data/downloads").path
    /// Which addresses transfers may connect to.
    public var egress = EgressPolicy()
    /// Extra certificate authorities to trust, PEM (`URLSESSIOND_CA_FILE`); nil: the system's store only.
    public var certificateAuthorities: String?
    /// Protocols besides http and https a request may use (`ftp`, `file`, `data` are opt-in).
    public var extraProtocols: [String] = []
    /// The longest response body a task may receive, decoded (`URLSESSIOND_MAX_DOWNLOAD_SIZE`); past it the
    /// task fails with -1103 `dataLengthExceedsMaximum` and its bytes go. 0: no limit.
    public var maximumDownloadSize: Int64 = 16 << 30

    /// The whole service's bandwidth limit, shared by every transfer (`URLSESSIOND_RATE_LIMIT`); nil: none.
    public var rateLimit: RateLimit?
    /// Each tenant's bandwidth limit, shared by its transfers (`URLSESSIOND_TENANT_RATE_LIMIT`); nil: none.
    public var tenantRateLimit: RateLimit?

    public init() {}

    public var tenantTransferLimit: Int { maximumTransfersPerTenant ?? max(1, maximumConcurrentTransfers / 2) }

    /// `CURLOPT_PROTOCOLS_STR` / `CURLOPT_REDIR_PROTOCOLS_STR`.
    var protocols: String { (["http", "https"] + extraProtocols).joined(separator: ",") }

    /// What every transfer is held to: these protocols, these authorities, this egress policy.
    var safetyBaseline: SafetyBaseline {
        SafetyBaseline(protocols: protocols, certificateAuthorities: certificateAuthorities, egress: egress)
    }
}
