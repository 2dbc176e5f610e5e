public import Curl
import Foundation

/// How the webhook dispatcher delivers events.
public struct EventDeliveryConfiguration: Sendable {
    /// When to retry a failed delivery (`URLSESSIOND_WEBHOOK_RETRY_SCHEDULE`).
    public var retryPolicy = RetryPolicy()
    /// Seconds one POST may take, connecting included (`URLSESSIOND_WEBHOOK_TIMEOUT`).
    public var timeout: Double = 15
    /// POSTs in flight at once across every session (each session has at most one per destination)
    /// (`URLSESSIOND_WEBHOOK_CONCURRENCY`).
    public var maximumConcurrentDeliveries = 64
    /// POSTs one tenant may have in flight (`URLSESSIOND_WEBHOOK_TENANT_CONCURRENCY`); nil: half of
    /// `maximumConcurrentDeliveries`, so one tenant's slow receivers always leave slots for the others.
    public var maximumConcurrentDeliveriesPerTenant: Int?
    /// Which addresses webhooks may reach: the engine's policy (`URLSESSIOND_EGRESS_ALLOW`).
    public var egress = EgressPolicy()
    /// Extra certificate authorities, PEM (`URLSESSIOND_CA_FILE`); nil: the system's store only.
    public var certificateAuthorities: String?
    /// Events read from the store at once per queue.
    public var batchSize = 256
    /// A queue's events signed and handed to the loop at once (`WebhookChain`): the loop sends each as the
    /// one before is acknowledged, without waiting for the coordinator between them.
    public var chainLength = 32
    /// A chain's POSTs leave at most this long after they were signed, so `webhook-timestamp` is never
    /// older than this when a POST leaves (Standard Webhooks receivers refuse timestamps minutes old); the
    /// rest are signed again.
    public var chainLifetime: Duration = .seconds(10)
    /// Outcomes are written at least this often (and at once past `flushThreshold` of them).
    public var flushInterval: Duration = .milliseconds(20)
    public var flushThreshold = 512
    /// How often the store is scanned for queues with work, besides the hints of new events.
    public var rescanInterval: Duration = .seconds(2)
    /// The dispatcher's clock tick: retry timers, flushes and scans are checked on it.
    public var tickInterval: Duration = .milliseconds(10)
    /// An idle queue is forgotten after this long (it comes back with its next event).
    public var idleQueueLifetime: Duration = .seconds(30)
    /// This node's name among the nodes sharing a PostgreSQL database: the holder of the leases it takes.
    public var nodeID = EventDeliveryConfiguration.defaultNodeID
    /// How long a node holds a session's delivery lease without renewing it (PostgreSQL): renewed at half
    /// of it while the node delivers, so a node that dies (kill -9) loses its sessions to the others
    /// after this long. The nodes' clocks must agree to well within it.
    public var leaseDuration: Duration = .seconds(15)

    public init() {}

    /// The host name and process id: unique among the nodes unless set otherwise.
    public static var defaultNodeID: String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
    }

    var tenantDeliveryLimit: Int { maximumConcurrentDeliveriesPerTenant ?? max(1, maximumConcurrentDeliveries / 2) }

    /// What every POST is held to: http(s) only, the service's authorities and egress policy.
    var safetyBaseline: SafetyBaseline {
        SafetyBaseline(protocols: "http,https", certificateAuthorities: certificateAuthorities, egress: egress)
    }
}
