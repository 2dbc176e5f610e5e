import Foundation
import TransferModels

/// One task's transfer as the bandwidth governor sees it: a segmented download's connections are one
/// flow and share its buckets. Its limits are the task's and its session's (the tenant's and the service's
/// are the governor's). Confined to the engine loop thread.
final class BandwidthFlow {
    enum Direction { case receive, send }

    let id: TransferID
    let tenant: String
    let session: String
    /// The task's own `rateLimit` (changed by `PATCH /v1/tasks/{id}` while it runs).
    var taskLimit: RateLimit?
    let sessionLimit: RateLimit?
    var receive = TokenBucket()
    var send = TokenBucket()
    /// The task's and the session's limits as last read (timetables evaluated).
    var taskRates = RateLimitRates.unlimited
    var sessionRates = RateLimitRates.unlimited
    /// What it would take (`TokenBucket.demandAndRestart`) as last measured; nil: as much as it is given.
    var demand: (receive: Double?, send: Double?) = (nil, nil)
    /// How many times a callback of the flow was held back, each way.
    var holds = (receive: 0, send: 0)
    /// The lowest limit of the four levels as of the last evaluation (what the task shows).
    var inForce = RateLimitRates.unlimited
    /// The rates measured over the last share period, bytes per second.
    var measured = (receive: 0.0, send: 0.0)
    /// Its connections (the primary and a segmented download's parts), by easy handle.
    var connections: [ObjectIdentifier: Transfer] = [:]
    /// Connections whose callback this flow paused; they are unpaused once its bucket has bytes again.
    var held: Set<ObjectIdentifier> = []
    /// How many times its held connections were unpaused: they take turns being first.
    private var unpauses = 0

    init(job: TransferJob) {
        (id, tenant, session) = (job.id, job.tenant, job.sessionId)
        (taskLimit, sessionLimit) = (job.rateLimit, job.sessionRateLimit)
    }

    /// Whether `transfer`'s callback may move bytes in `direction` now; if not, the flow remembers to
    /// unpause it.
    func admits(_ direction: Direction, _ transfer: Transfer) -> Bool {
        let allowed = direction == .receive ? receive.admit() : send.admit()
        if !allowed {
            held.insert(ObjectIdentifier(transfer.easy))
            if direction == .receive { holds.receive += 1 } else { holds.send += 1 }
        }
        return allowed
    }

    /// Its held connections, no longer held, in the order to unpause them. An unpaused connection is called
    /// back at once with what libcurl holds for it (up to 512 KiB), so the first may take the whole bucket
    /// and the others are held again. In a set's order, which seldom changes, the same connection could go
    /// first turn after turn while a segmented download's other connections waited.
    func releaseHeldInTurn() -> [ObjectIdentifier] {
        let keys = held.sorted()
        held.removeAll()
        guard !keys.isEmpty else { return [] }
        unpauses &+= 1
        let first = unpauses % keys.count
        return Array(keys[first...] + keys[..<first])
    }

    /// Evaluates the task's and the session's limits at `date` (a timetable's period may have changed), and
    /// the lowest of the four levels.
    func readLimits(at date: Date, levels: BandwidthGovernor.Levels) {
        taskRates = taskLimit?.rates(at: date) ?? .unlimited
        sessionRates = sessionLimit?.rates(at: date) ?? .unlimited
        inForce = taskRates.lowest(sessionRates).lowest(levels.tenant).lowest(levels.service)
    }

    func took(_ bytes: Int, _ direction: Direction) {
        if direction == .receive { receive.take(bytes) } else { send.take(bytes) }
    }

    /// The most one read callback may send when sending is limited: what the bucket may save up (a tenth
    /// of a second of the share); nil when sending is not limited.
    var sendChunkLimit: Int? { send.rate == nil ? nil : Int(send.capacity) }

    /// Whether the flow is limited in either direction now.
    var isLimited: Bool { receive.rate != nil || send.rate != nil }

    /// The receive buffer a new socket of the flow gets (`SO_RCVBUF`) when the flow has `sockets` of them
    /// (a segmented download's connections): a quarter second of its receive share, divided between them,
    /// so the origin cannot send far ahead of the limit into a buffer the kernel would grow to `tcp_rmem`'s
    /// maximum — four sockets with a quarter second each held a second of the limit (the kernel doubles
    /// the value), and the origin saw the download 10 % off its limit over 10 s as those buffers filled
    /// and drained; nil when receiving is not limited.
    func receiveBufferBytes(sockets: Int) -> Int32? {
        guard let rate = receive.rate ?? inForce.receive.map(Double.init) else { return nil }
        return Int32(min(max(rate / 4 / Double(max(sockets, 1)), 16 * 1024), 8 * 1024 * 1024))
    }
}
