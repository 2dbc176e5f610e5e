import Foundation
import Logging
import TransferModels
import TransferStore

extension DeliveryCoordinator {
    /// Opens the session's delegate lane now if its lease is held here, otherwise asks for the lease
    /// (the lane opens once it is taken).
    func openDelegateLaneWhenLeased(_ sessionId: String) async {
        if leases.holds(sessionId) {
            await openDelegateLane(sessionId)
        } else if !leases.isElsewhere(sessionId) {
            leases.wanted[sessionId, default: .init()].delegate = true
        }
    }

    /// Opens the session's completion lane now if its lease is held here, otherwise asks for the lease.
    func openCompletionLaneWhenLeased(_ sessionId: String, tenant: String) {
        let key = LaneKey(sessionId: sessionId, kind: .completion)
        if leases.holds(sessionId) {
            if lanes[key] == nil { lanes[key] = DeliveryLane(key: key, tenant: tenant, readCursor: 0) }
            advance(key)
        } else if !leases.isElsewhere(sessionId) {
            leases.wanted[sessionId, default: .init()].completionTenant = tenant
        }
    }

    /// Stops the lanes whose lease ran out, renews the leases past half their time, and takes the leases
    /// asked for, opening their lanes: one write for all of them.
    func maintainLeases() async {
        guard leases.isEnabled else { return }
        let now = ContinuousClock.now
        for sessionId in leases.lost(at: now) { loseLease(sessionId) }
        guard now >= leases.nextAttempt else { return }
        let renewing = leases.dueForRenewal(at: now)
        let wanted = leases.wanted
        guard !renewing.isEmpty || !wanted.isEmpty else { return }
        let sessions = renewing + wanted.keys
        let started = ContinuousClock.now
        let held: Set<String>
        do {
            held = try await store.cluster.acquireLeases(
                names: sessions.map(DeliveryLeases.name(of:)), node: configuration.nodeID, duration: leases.duration)
        } catch {
            logger.error("Taking webhook delivery leases failed", metadata: ["error": "\(String(reflecting: error))"])
            leases.nextAttempt = .now + .seconds(1)
            return
        }
        for sessionId in sessions {
            if held.contains(DeliveryLeases.name(of: sessionId)) {
                leases.heldUntil[sessionId] = started + leases.duration
                leases.elsewhereUntil[sessionId] = nil
            } else if leases.heldUntil[sessionId] != nil {
                loseLease(sessionId)
            } else {
                // Another node delivers it; asked again after a third of a lease (its lease may lapse).
                leases.elsewhereUntil[sessionId] = .now + leases.duration / 3
            }
        }
        for (sessionId, lanesWanted) in wanted {
            leases.wanted[sessionId] = nil
            guard leases.holds(sessionId) else { continue }
            logger.debug("Delivering a session's webhooks on this node", metadata: ["session.id": "\(sessionId)"])
            if lanesWanted.delegate, lanes[LaneKey(sessionId: sessionId, kind: .delegate)] == nil {
                await openDelegateLane(sessionId)
            }
            if let tenant = lanesWanted.completionTenant { openCompletionLaneWhenLeased(sessionId, tenant: tenant) }
        }
    }

    /// The session's lease is gone (expired unrenewed, or taken over): its lanes stop here at once. What
    /// they learned is still written; a POST in flight may reach the receiver once more from the next
    /// node (at least once).
    func loseLease(_ sessionId: String) {
        leases.heldUntil[sessionId] = nil
        logger.notice("A session's webhook delivery lease was lost", metadata: ["session.id": "\(sessionId)"])
        dropLanes(of: sessionId)
    }

    /// Releases the leases of sessions with no lane left here, once everything learned is written (the
    /// next node reads the cursors this one wrote).
    func releaseUnusedLeases() async {
        guard leases.isEnabled, writes.areSettled else { return }
        let unused = leases.heldUntil.keys.filter { sessionId in
            lanes[LaneKey(sessionId: sessionId, kind: .delegate)] == nil
                && lanes[LaneKey(sessionId: sessionId, kind: .completion)] == nil
        }
        await releaseLeases(of: Array(unused))
    }

    /// Releases every lease held (shutdown, after the last write of outcomes).
    func releaseAllLeases() async {
        guard leases.isEnabled else { return }
        await releaseLeases(of: Array(leases.heldUntil.keys))
    }

    private func releaseLeases(of sessions: [String]) async {
        guard !sessions.isEmpty else { return }
        for sessionId in sessions {
            leases.heldUntil[sessionId] = nil
            dropLanes(of: sessionId)
        }
        do {
            try await store.cluster.releaseLeases(names: sessions.map(DeliveryLeases.name(of:)), node: configuration.nodeID)
        } catch {
            // They expire by themselves: another node waits a lease's time at most.
            logger.error("Releasing webhook delivery leases failed", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// Forgets the session's lanes (a decision in flight is answered `noAnswer`: its answer would be
    /// dropped).
    private func dropLanes(of sessionId: String) {
        for kind in [LaneKey.Kind.delegate, .completion] {
            let key = LaneKey(sessionId: sessionId, kind: kind)
            endChain(of: key)  // the session's next holder sends the rest
            if let lane = lanes[key], lane.inFlightToken != nil, let head = lane.pending.first, head.isDecision {
                waiters.deliver(.noAnswer, eventId: head.event.id, sessionId: sessionId)
            }
            lanes[key] = nil
            waiting.sleeping[key] = nil
            waiting.needsRead.remove(key)
        }
    }
}
