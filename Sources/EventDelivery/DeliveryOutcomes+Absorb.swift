import Foundation
import TransferStore

extension DeliveryOutcomes {
    /// Takes back `older` outcomes a write could not record, under what was learned since (which wins
    /// where both say something: it is newer).
    mutating func absorb(older: DeliveryOutcomes) {
        delivered.merge(older.delivered) { newer, _ in newer }
        failures = older.failures + failures
        abandoned.merge(older.abandoned) { newer, _ in newer }
        cursors.merge(older.cursors) { max($0, $1) }
        delegateRetry.merge(older.delegateRetry) { newer, _ in newer }
        disabled.merge(older.disabled) { newer, _ in newer }
        // A hold not written would leave the queue held in this coordinator's memory only: a restart
        // would send the held events again without the client's re-attach.
        held.merge(older.held) { newer, _ in newer }
        delegateHealth.merge(older.delegateHealth) { newer, older in older.followed(by: newer) }
    }
}
