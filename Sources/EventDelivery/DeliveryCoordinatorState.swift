import Foundation
import TransferStore

// The coordinator's state, by what each part is about. Plain values: the coordinator alone holds and
// changes them, on the task that runs it.

/// The POSTs in flight, a token for each lane's chain, and how many each tenant has.
struct InFlightPosts {
    private(set) var tokens: [Int: (key: LaneKey, tenant: String)] = [:]
    private(set) var perTenant: [String: Int] = [:]
    private var lastToken = 0

    /// A chain of `key`'s POSTs leaves: its token.
    mutating func open(_ key: LaneKey, tenant: String) -> Int {
        lastToken += 1
        tokens[lastToken] = (key, tenant)
        perTenant[tenant, default: 0] += 1
        return lastToken
    }

    /// Whose the POSTs with `token` are, while they go on.
    func owner(of token: Int) -> (key: LaneKey, tenant: String)? { tokens[token] }

    /// The POSTs with `token` ended: whose they were (nil: not one of these).
    mutating func close(_ token: Int) -> (key: LaneKey, tenant: String)? {
        guard let post = tokens.removeValue(forKey: token) else { return nil }
        perTenant[post.tenant, default: 1] -= 1
        if perTenant[post.tenant] == 0 { perTenant[post.tenant] = nil }
        return post
    }
}

/// Lanes that wait: with an event to send, for a free slot (in turn between tenants, FIFO within one;
/// stale entries are skipped); run dry, for a read; or asleep until their retry.
struct WaitingLanes {
    var ready = ReadyLanes()
    var needsRead: Set<LaneKey> = []
    var sleeping: [LaneKey: ContinuousClock.Instant] = [:]
}

/// What the coordinator learned and the store has not been told yet, and the write under way: the
/// coordinator goes on sending meanwhile (a write waits behind the tasks' transactions, and a session's
/// next POST should not).
struct PendingWrites {
    /// Learned since the last write began.
    var outcomes = DeliveryOutcomes()
    var task: Task<Void, Never>?
    /// The holds in the write under way, forgotten from `SessionMarks.held` once it succeeds.
    var heldBeingWritten: Set<String> = []
    var lastFlush = ContinuousClock.now

    /// Everything learned is written: a lane forgotten now, or re-read from the store, cannot send an
    /// event twice.
    var areSettled: Bool { outcomes.isEmpty && task == nil }
}

/// Sessions whose lanes are treated apart from what the store says, until it says so too.
struct SessionMarks {
    /// Delegate URLs disabled by a 410 here (until the store says so too, a scan must not reopen them).
    var disabled: Set<String> = []
    /// Delegate queues held for their client's re-attach whose hold is not written yet: a scan meanwhile
    /// must not reopen them, which would send the held event again.
    var held: Set<String> = []
    /// Sessions whose delegate changed, to re-address once their lane has nothing in flight.
    var readdressing: Set<String> = []
    /// Sessions whose delegate lane is read again from the store (delegate changes may have been missed).
    var refreshing: Set<String> = []
}

/// The coordinator's rounds of the store: scans for queues with work, the queue depth it reports, and
/// the eviction of idle lanes, each when due.
struct StoreChores {
    var scanWanted = true
    var lastScan: ContinuousClock.Instant?
    var lastDepth: ContinuousClock.Instant?
    var lastEviction = ContinuousClock.now
}
