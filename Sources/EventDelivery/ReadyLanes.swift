/// Lanes with an event to send, waiting for a free POST slot: one FIFO per tenant, and the turn among
/// the tenants.
///
/// Slots go round the tenants with ready lanes, one POST per turn, and a tenant with its cap of POSTs
/// in flight is passed over. So a tenant whose receivers are slow or black-holed (each POST holding its
/// slot until the timeout) fills at most its cap, and the other tenants' events, decisions above all,
/// keep going out.
struct ReadyLanes {
    private var queues: [String: ArraySlice<LaneKey>] = [:]
    /// Tenants with ready lanes, in the order of their turns.
    private var turns: [String] = []
    private var nextTurn = 0

    var isEmpty: Bool { turns.isEmpty }

    mutating func append(_ key: LaneKey, tenant: String) {
        if queues[tenant] == nil {
            turns.insert(tenant, at: nextTurn)  // a newcomer's turn comes at the end of the round
            nextTurn += 1
            if nextTurn >= turns.count { nextTurn = 0 }
        }
        queues[tenant, default: []].append(key)
    }

    /// The next lane to send, taking its tenant's turn; nil when every tenant with ready lanes is at its
    /// cap (or none has any).
    mutating func popNext(mayStart: (String) -> Bool) -> LaneKey? {
        for step in 0..<turns.count {
            let position = (nextTurn + step) % turns.count
            let tenant = turns[position]
            guard mayStart(tenant), let key = queues[tenant]?.popFirst() else { continue }
            if queues[tenant]?.isEmpty == true {
                queues[tenant] = nil
                turns.remove(at: position)
                nextTurn = turns.isEmpty ? 0 : position % turns.count
            } else {
                nextTurn = (position + 1) % turns.count
            }
            return key
        }
        return nil
    }
}
