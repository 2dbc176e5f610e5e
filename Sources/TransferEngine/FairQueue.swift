/// The jobs waiting for a slot: one queue per tenant, and the turn among the tenants.
///
/// Slots go round the tenants that have queued work, one start per turn. This is deficit round-robin
/// with equal quanta and a cost of one slot per transfer: a tenant that queued 5,000 jobs gets one start
/// per round, as does a tenant that queued one, so a backlog can never take the slots another tenant is
/// waiting for. `priority` orders a tenant's own jobs only (discretionary ones last, first come first
/// served within one priority). A tenant at its cap of running transfers is passed over.
struct FairQueue {
    struct Entry {
        let arrival: Int
        let job: TransferJob
        /// The unit of `httpMaximumConnectionsPerHost`, worked out once.
        let hostKey: String

        /// Best first: non-discretionary, then the highest priority, then the earliest.
        func precedes(_ other: Entry) -> Bool {
            if job.isDiscretionary != other.job.isDiscretionary { return !job.isDiscretionary }
            if job.priority != other.job.priority { return job.priority > other.job.priority }
            return arrival < other.arrival
        }
    }

    /// What a pass knows about the slots in use.
    struct Room {
        var runningPerTenant: [String: Int]
        var tenantLimit: Int
        /// Discretionary jobs start only while the engine is mostly idle.
        var allowsDiscretionary: Bool
        /// Whether a job's session and host have a connection to spare.
        var hostHasRoom: (Entry) -> Bool
    }

    private var queues: [String: [Entry]] = [:]
    /// Tenants with queued jobs, in the order of their turns.
    private var turns: [String] = []
    private var nextTurn = 0
    private var arrivals = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Whether some waiting job satisfies `predicate`.
    func contains(where predicate: (TransferJob) -> Bool) -> Bool {
        queues.values.contains { queue in queue.contains { predicate($0.job) } }
    }

    /// Whether some waiting job is for the session and host `hostKey`.
    func contains(hostKey: String) -> Bool {
        queues.values.contains { queue in queue.contains { $0.hostKey == hostKey } }
    }

    mutating func append(_ job: TransferJob, hostKey: String) {
        arrivals += 1
        let entry = Entry(arrival: arrivals, job: job, hostKey: hostKey)
        if queues[job.tenant] == nil {
            // A newcomer takes the turn just before the current one: it waits at most one round.
            turns.insert(job.tenant, at: nextTurn)
            nextTurn += 1
        }
        var queue = queues[job.tenant, default: []]
        let index = queue.partitioningIndex { entry.precedes($0) }
        queue.insert(entry, at: index)
        queues[job.tenant] = queue
        count += 1
    }

    /// The next job to start, taking its tenant's turn; nil when no tenant has a job that may start now.
    mutating func popNext(_ room: Room) -> TransferJob? {
        for step in 0..<turns.count {
            let position = (nextTurn + step) % turns.count
            let tenant = turns[position]
            guard room.runningPerTenant[tenant, default: 0] < room.tenantLimit, let queue = queues[tenant] else { continue }
            for (index, entry) in queue.enumerated() {
                if entry.job.isDiscretionary && !room.allowsDiscretionary { break }  // the rest are discretionary too
                guard room.hostHasRoom(entry) else { continue }
                remove(at: index, of: tenant, turn: position, served: true)
                return entry.job
            }
        }
        return nil
    }

    /// Removes the job with `id`, if it is queued.
    mutating func remove(_ id: TransferID) -> TransferJob? {
        for (tenant, queue) in queues {
            guard let index = queue.firstIndex(where: { $0.job.id == id }) else { continue }
            let job = queue[index].job
            remove(at: index, of: tenant, turn: turns.firstIndex(of: tenant), served: false)
            return job
        }
        return nil
    }

    /// Removes and returns every queued job that `shouldRemove` picks, in no particular order.
    mutating func removeAll(where shouldRemove: (TransferJob) -> Bool) -> [TransferJob] {
        var removed: [TransferJob] = []
        for (tenant, queue) in queues {
            let kept = queue.filter { !shouldRemove($0.job) }
            guard kept.count != queue.count else { continue }
            removed += queue.filter { shouldRemove($0.job) }.map(\.job)
            count -= queue.count - kept.count
            if kept.isEmpty, let position = turns.firstIndex(of: tenant) {
                dropTurn(of: tenant, at: position, served: false)
            } else {
                queues[tenant] = kept
            }
        }
        return removed
    }

    /// Takes entry `index` out of `tenant`'s queue. After a start (`served`) the turn passes to the next
    /// tenant; otherwise it stays with the tenant whose turn it was. A tenant whose queue empties leaves the
    /// round.
    private mutating func remove(at index: Int, of tenant: String, turn position: Int?, served: Bool) {
        count -= 1
        queues[tenant]?.remove(at: index)
        guard let position else { return }
        if queues[tenant]?.isEmpty == true {
            dropTurn(of: tenant, at: position, served: served)
        } else if served {
            nextTurn = (position + 1) % turns.count
        }
    }

    private mutating func dropTurn(of tenant: String, at position: Int, served: Bool) {
        queues[tenant] = nil
        turns.remove(at: position)
        // The tenant after it moved into its place.
        if served {
            nextTurn = position
        } else if position < nextTurn {
            nextTurn -= 1
        }
        if nextTurn >= turns.count { nextTurn = 0 }
    }
}

extension Array {
    /// The first index whose element satisfies `belongsAfter`, for an array partitioned by it (binary
    /// search).
    fileprivate func partitioningIndex(where belongsAfter: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if belongsAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
