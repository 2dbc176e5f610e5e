import Curl
import Foundation
import TransferModels

/// Holds transfers to their bandwidth limits — the task's, the session's, the tenant's and the service's,
/// the lowest winning — and divides limits shared by several transfers between them max-min fairly
/// (`FairShare`). Runs on the engine loop thread (the scheduler calls it).
///
/// How: each flow has a token bucket per direction filled at its share; libcurl's write and read callbacks
/// take bytes from it and return `CURL_WRITEFUNC_PAUSE` / `CURL_READFUNC_PAUSE` when it is empty, and the
/// loop unpauses the flow's connections (`curl_easy_pause`) once it has bytes again. Not libcurl's own
/// `CURLOPT_MAX_RECV_SPEED_LARGE`: in 7.88.1 it judges the bytes of a 3-second window
/// (`MIN_RATE_LIMIT_PERIOD`, progress.c) against whatever limit is set now, so a share lowered mid-window
/// stalls a transfer for seconds, a raised one lets it burst, and a limit set on a transfer that ran
/// unlimited counts every byte since the transfer began (its window stamps only move while a limit is
/// set): shares that change every quarter second would miss ±10 %. A paused callback also stops reading
/// the socket, so with its `SO_RCVBUF` bounded (`BandwidthFlow.receiveBufferBytes`) the origin sees the limit.
final class BandwidthGovernor {
    /// The service's and each tenant's limits (`URLSESSIOND_RATE_LIMIT`, `URLSESSIOND_TENANT_RATE_LIMIT`).
    let serviceLimit: RateLimit?
    let tenantLimit: RateLimit?
    private(set) var flows: [TransferID: BandwidthFlow] = [:]
    /// Limits changed (`PATCH`) for transfers not started yet; taken when their flow is made.
    private var pendingTaskLimits: [TransferID: RateLimit?] = [:]
    /// Shares are divided again this often: a flow that sped up or went idle is seen within this time.
    static let sharePeriod: Duration = .milliseconds(250)
    /// Timetables are read again this often, so a change of period holds within 2 s.
    static let limitPeriod: Duration = .seconds(1)
    var lastShares = ContinuousClock.now
    var lastLimits = ContinuousClock.now
    /// A flow joined since the shares were last divided: they are divided again before the next bytes move
    /// (`divideIfNeeded`, once per turn of the loop however many joined — a division per transfer started
    /// cost more than the small transfers themselves).
    var needsDivision = false
    var levels = Levels()
    /// Holds counted by flows that have gone (`BandwidthReadings.holds`).
    var retiredHolds = (receive: 0, send: 0)
    /// What `/metrics` and the task representation read from other threads.
    let published = LockedBox(BandwidthReadings())

    init(serviceLimit: RateLimit?, tenantLimit: RateLimit?) {
        (self.serviceLimit, self.tenantLimit) = (serviceLimit, tenantLimit)
        readLimits(at: Date())
    }

    /// Whether any limit could apply: without one, nothing is tracked and no callback is slowed.
    private func mayLimit(_ job: TransferJob) -> Bool {
        serviceLimit != nil || tenantLimit != nil || job.rateLimit != nil || job.sessionRateLimit != nil
            || pendingTaskLimits[job.id] != nil
    }

    /// A connection of `transfer`'s task begins (its own, or a part of its segmented download): it joins
    /// the task's flow, made now with its share (before its first byte).
    /// Called before every request a transfer sends (its first, a redirect's, a range's, another
    /// mirror's): a transfer between requests is not running, so `sweep` may have dropped its flow; it then
    /// joins its task's live flow (or a new one keeping a PATCHed limit) instead of spending a bucket the
    /// governor no longer divides — which let a segmented download run past its limit.
    func attach(_ transfer: Transfer) {
        let left = transfer.bandwidth
        if let left, flows[left.id] === left {
            left.connections[ObjectIdentifier(transfer.easy)] = transfer
            return
        }
        transfer.bandwidth = nil
        if let flow = flows[transfer.job.id] {
            flow.connections[ObjectIdentifier(transfer.easy)] = transfer
            transfer.bandwidth = flow
            return
        }
        guard left != nil || mayLimit(transfer.job) else { return }
        let flow = BandwidthFlow(job: transfer.job)
        if let left { flow.taskLimit = left.taskLimit }
        if let pending = pendingTaskLimits.removeValue(forKey: flow.id) { flow.taskLimit = pending }
        // The levels' timetables are read every `limitPeriod` while flows run; after an idle spell, now.
        if ContinuousClock.now - lastLimits >= Self.limitPeriod { readLimits(at: Date()) }
        flow.readLimits(at: Date(), levels: levels)
        flow.connections[ObjectIdentifier(transfer.easy)] = transfer
        transfer.bandwidth = flow
        flows[flow.id] = flow
        needsDivision = true
    }

    /// A connection left its slot: it leaves its flow, and a flow with no connection left goes, so the
    /// flows divided are those still running. Their shares grow at the next division (within
    /// `sharePeriod`), as when a flow goes idle.
    func detach(_ transfer: Transfer) {
        guard let flow = transfer.bandwidth, flows[flow.id] === flow else { return }
        let key = ObjectIdentifier(transfer.easy)
        flow.connections[key] = nil
        flow.held.remove(key)
        if flow.connections.isEmpty { retire(flow) }
    }

    /// Divides the shares when a flow joined since the last division: before the loop lets libcurl move
    /// bytes again, so a new flow's first byte already counts against its share.
    func divideIfNeeded() {
        if needsDivision { divide(now: .now, readingLimits: false) }
    }

    /// `PATCH /v1/tasks/{id}` changed the task's limit: its running transfer (`connections`, empty when it
    /// has not started) takes it at once.
    func setTaskLimit(_ id: TransferID, _ limit: RateLimit?, connections: [Transfer]) {
        guard let first = connections.first else {
            pendingTaskLimits[id] = .some(limit)
            return
        }
        let flow = flows[id] ?? BandwidthFlow(job: first.job)
        flows[id] = flow
        for transfer in connections {
            flow.connections[ObjectIdentifier(transfer.easy)] = transfer
            transfer.bandwidth = flow
        }
        flow.taskLimit = limit
        divide(now: .now, readingLimits: true)
    }

    /// A job left the queue without running: a limit set for it is forgotten.
    func forget(_ id: TransferID) { pendingTaskLimits[id] = nil }

    /// Each loop turn: buckets refill, held connections with bytes to move again are unpaused, and every
    /// `sharePeriod` the shares are divided again. `isRunning` tells which connections still run.
    func turn(isRunning: (Transfer) -> Bool) {
        guard !flows.isEmpty else { return }
        let now = ContinuousClock.now
        if now - lastShares >= Self.sharePeriod {
            sweep(isRunning: isRunning)
            divide(now: now, readingLimits: now - lastLimits >= Self.limitPeriod, measuring: true)
        }
        for flow in flows.values where !flow.held.isEmpty {
            flow.receive.refill(at: now)
            flow.send.refill(at: now)
            guard flow.receive.allows && flow.send.allows else { continue }
            for key in flow.releaseHeldInTurn() {
                guard let transfer = flow.connections[key], isRunning(transfer) else { continue }
                transfer.meter.lastActivity = now  // held back by its limit, not idle
                transfer.easy.unpause()
            }
        }
    }

    /// How long the loop may sleep before a held flow has bytes again or the shares are due.
    var wakeAfter: Duration? {
        guard !flows.isEmpty else { return nil }
        var wake = max(.zero, Self.sharePeriod - (ContinuousClock.now - lastShares))
        for flow in flows.values where !flow.held.isEmpty {
            for bucket in [flow.receive, flow.send] { if let wait = bucket.timeUntilAllowed { wake = min(wake, wait) } }
        }
        return wake
    }

    /// Whether `transfer` waits for its limit (not for its peer): the idle timeout does not run then.
    func isHolding(_ transfer: Transfer) -> Bool {
        transfer.bandwidth?.held.contains(ObjectIdentifier(transfer.easy)) ?? false
    }

    /// Connections that ended leave their flow; a flow with none left goes.
    private func sweep(isRunning: (Transfer) -> Bool) {
        for flow in flows.values {
            for (key, transfer) in flow.connections where !isRunning(transfer) {
                flow.connections[key] = nil
                flow.held.remove(key)
            }
            if flow.connections.isEmpty { retire(flow) }
        }
    }

    private func retire(_ flow: BandwidthFlow) {
        flows[flow.id] = nil
        retiredHolds = (retiredHolds.receive + flow.holds.receive, retiredHolds.send + flow.holds.send)
    }
}
