import Foundation
import Logging
import TransferModels
import TransferStore

extension DeliveryCoordinator {
    /// Sends the queues of sessions whose delegate changed (a patch, a re-attach from a new address) to
    /// the new delegate: the events read for the old one are dropped from memory and read again, with the
    /// new URL, signer and filters, from where the queue is done. What the old address earned (a retry
    /// wait, a hold, a 410) is forgotten. A redeliver (`POST /v1/sessions/{id}/redeliver`) comes the same
    /// way, with the same delegate: its queue starts again now.
    ///
    /// A lane with a POST in flight is re-addressed once its answer is in, and only while no write of
    /// outcomes is under way, so whatever that answer taught about the old address is already in
    /// `outcomes` (and dropped here) or written (and undone by `reopenDelegateQueue`).
    func readdressDelegates() async {
        await refreshDelegateLanes()
        guard !marks.readdressing.isEmpty, writes.task == nil else { return }
        for sessionId in marks.readdressing {
            let key = LaneKey(sessionId: sessionId, kind: .delegate)
            if lanes[key]?.inFlightToken != nil { continue }
            marks.readdressing.remove(sessionId)
            marks.disabled.remove(sessionId)
            marks.held.remove(sessionId)
            writes.outcomes.disabled[sessionId] = nil
            writes.outcomes.held[sessionId] = nil
            writes.outcomes.delegateRetry[sessionId] = nil
            // The node holding the session's lease re-addresses it (it alone has POSTs in flight to the
            // old address); the change itself already reset what the store knew about that address.
            guard leases.holds(sessionId) else {
                // A queue no node delivers (its lane was dropped by a hold or a 410, and its lease let go)
                // is found by the next scan, soon rather than at the periodic one.
                if !leases.isElsewhere(sessionId) { chores.scanWanted = true }
                continue
            }
            do {
                try await store.deliveries.reopenDelegateQueue(sessionId: sessionId)
            } catch {
                logger.error(
                    "Re-addressing a delegate queue failed",
                    metadata: ["session.id": "\(sessionId)", "error": "\(String(reflecting: error))"])
                marks.readdressing.insert(sessionId)  // tried again on the next turn
                continue
            }
            // Events this coordinator finished but has not written yet are not sent again.
            let done = writes.outcomes.cursors[sessionId]
            lanes[key] = nil
            waiting.sleeping[key] = nil
            waiting.needsRead.remove(key)
            await openDelegateLane(sessionId)
            if let done, let cursor = lanes[key]?.readCursor, cursor < done {
                lanes[key]?.readCursor = done
            }
        }
    }

    /// Reads delegate lanes again from the store after delegate changes may have been missed (this
    /// node's listener reconnected): each lane with nothing in flight, once everything learned is
    /// written, is dropped and opened again with the delegate and cursor as stored. Unlike a re-address,
    /// what the store knows about the address (a retry time, a hold, a 410) stays.
    private func refreshDelegateLanes() async {
        guard !marks.refreshing.isEmpty, writes.areSettled else { return }
        for sessionId in marks.refreshing {
            let key = LaneKey(sessionId: sessionId, kind: .delegate)
            if lanes[key]?.inFlightToken != nil { continue }
            marks.refreshing.remove(sessionId)
            guard lanes[key] != nil else { continue }
            lanes[key] = nil
            waiting.sleeping[key] = nil
            waiting.needsRead.remove(key)
            await openDelegateLane(sessionId)
        }
    }
}
