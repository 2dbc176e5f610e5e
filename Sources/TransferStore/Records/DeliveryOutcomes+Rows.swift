import Foundation
import TransferModels

extension DeliveryOutcomes {
    /// One row per event the batch touched, its changes merged in the order they happened: every attempt
    /// counts (failures, then the acknowledgement or the give-up); the retry time is the last failure's,
    /// or none once the event is delivered or given up. (Two rows for one event in a set would update it
    /// once, with either.) Sorted by id: the rows are locked in the order every batch takes them.
    var eventChanges: StoreRowSet {
        struct Change {
            var attempts = 0
            var retryAt: Date?
            var deliveredAt: Date?
            var failedAt: Date?
        }
        var changes: [String: Change] = [:]
        for failure in failures {
            changes[failure.eventId, default: Change()].attempts += 1
            changes[failure.eventId, default: Change()].retryAt = failure.nextAttemptAt
        }
        for (id, at) in delivered {
            changes[id, default: Change()].attempts += 1
            changes[id]?.deliveredAt = at
            changes[id]?.retryAt = nil
        }
        for (id, at) in abandoned {
            changes[id, default: Change()].attempts += 1
            changes[id]?.failedAt = at
            changes[id]?.retryAt = nil
        }
        var set = StoreRowSet([
            ("ref", .text), ("attempts", .integer), ("retryat", .text), ("deliveredat", .text), ("failedat", .text),
        ])
        for (id, change) in changes.sorted(by: { $0.key < $1.key }) {
            set.append([
                id.storeValue, Int64(change.attempts).storeValue, change.retryAt.storeValue, change.deliveredAt.storeValue,
                change.failedAt.storeValue,
            ])
        }
        return set
    }

    /// One row per session the batch touched: its delegate queue's new cursor, retry mark, hold, 410 and
    /// health (null where the batch has no news of it). Sorted by id, as `eventChanges`.
    var sessionChanges: StoreRowSet {
        let ids = Set(cursors.keys).union(delegateRetry.keys).union(disabled.keys).union(held.keys).union(delegateHealth.keys)
        var set = StoreRowSet([
            ("ref", .text), ("seq", .integer), ("retryset", .integer), ("retryat", .text), ("heldat", .text),
            ("disabledat", .text), ("keep", .integer), ("failures", .integer), ("deliveredat", .text), ("failedat", .text),
            ("reason", .text),
        ])
        for id in ids.sorted() {
            var retryAt: Date?
            if case .at(let date) = delegateRetry[id] { retryAt = date }
            let health = delegateHealth[id]
            set.append([
                id.storeValue, cursors[id].storeValue, delegateRetry[id] == nil ? .null : Int64(1).storeValue, retryAt.storeValue,
                held[id].storeValue, disabled[id].storeValue,
                health.map { Int64($0.deliveredAt == nil ? 1 : 0) }.storeValue, health.map { Int64($0.failures) }.storeValue,
                health?.deliveredAt.storeValue ?? .null, health?.lastFailure?.at.storeValue ?? .null,
                health?.lastFailure?.reason.storeValue ?? .null,
            ])
        }
        return set
    }
}
