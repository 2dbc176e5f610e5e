import TransferModels

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
        /// Out of line: an entry is held twice (by `live` and by its line), and a job is 880 bytes inline.
        @OutOfLine var job: TransferJob
        /// The unit of `httpMaximumConnectionsPerHost`, worked out once.
        let hostKey: String
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

    /// Every queued entry by its job, the one place that says what is queued: a removed job's entry may
    /// stay in its line until it reaches the front (removing it there would cost a shift of the line).
    private var live: [TransferID: Entry] = [:]
    private var tenants: [String: TenantQueue] = [:]
    private var queuedPerHost: [String: Int] = [:]
    /// Tenants with queued jobs, in the order of their turns.
    private var turns: [String] = []
    private var nextTurn = 0
    private var arrivals = 0

    var count: Int { live.count }
    var isEmpty: Bool { live.isEmpty }

    /// Whether some waiting job satisfies `predicate`.
    func contains(where predicate: (TransferJob) -> Bool) -> Bool {
        live.values.contains { predicate($0.job) }
    }

    /// Whether some waiting job is for the session and host `hostKey`.
    func contains(hostKey: String) -> Bool {
        queuedPerHost[hostKey] != nil
    }

    mutating func append(_ job: TransferJob, hostKey: String) {
        if let queued = live[job.id] { take(queued, turn: turns.firstIndex(of: queued.job.tenant), served: false) }
        arrivals += 1
        let entry = Entry(arrival: arrivals, job: job, hostKey: hostKey)
        if tenants[job.tenant] == nil {
            // A newcomer takes the turn just before the current one: it waits at most one round.
            turns.insert(job.tenant, at: nextTurn)
            nextTurn += 1
        }
        live[job.id] = entry
        queuedPerHost[hostKey, default: 0] += 1
        tenants[job.tenant, default: TenantQueue()].append(entry)
    }

    /// The next job to start, taking its tenant's turn, with the host key it was queued under; nil when no
    /// tenant has a job that may start now.
    mutating func popNext(_ room: Room) -> (job: TransferJob, hostKey: String)? {
        for step in 0..<turns.count {
            let position = (nextTurn + step) % turns.count
            let tenant = turns[position]
            guard room.runningPerTenant[tenant, default: 0] < room.tenantLimit,
                let entry = tenants[tenant]?.best(room)
            else { continue }
            take(entry, turn: position, served: true)
            return (entry.job, entry.hostKey)
        }
        return nil
    }

    /// Removes the job with `id`, if it is queued.
    mutating func remove(_ id: TransferID) -> TransferJob? {
        guard let entry = live[id] else { return nil }
        take(entry, turn: turns.firstIndex(of: entry.job.tenant), served: false)
        return entry.job
    }

    /// Removes and returns every queued job that `shouldRemove` picks, in no particular order.
    mutating func removeAll(where shouldRemove: (TransferJob) -> Bool) -> [TransferJob] {
        let removed = live.values.filter { shouldRemove($0.job) }
        for entry in removed {
            take(entry, turn: turns.firstIndex(of: entry.job.tenant), served: false)
        }
        return removed.map(\.job)
    }

    /// Takes `entry` out of the queue. After a start (`served`) the turn passes to the next tenant;
    /// otherwise it stays with the tenant whose turn it was. A tenant whose queue empties leaves the round.
    private mutating func take(_ entry: Entry, turn position: Int?, served: Bool) {
        let tenant = entry.job.tenant
        live[entry.job.id] = nil
        if queuedPerHost[entry.hostKey] == 1 { queuedPerHost[entry.hostKey] = nil } else { queuedPerHost[entry.hostKey]? -= 1 }
        let live = self.live
        let isEmpty = tenants[tenant]?.remove(entry) { live[$0.job.id]?.arrival == $0.arrival } ?? true
        if isEmpty {
            tenants[tenant] = nil  // with any dead entries its lines still held
            if let position { dropTurn(at: position, served: served) }
        } else if served, let position {
            nextTurn = (position + 1) % turns.count
        }
    }

    private mutating func dropTurn(at position: Int, served: Bool) {
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

extension FairQueue {
    /// What orders a tenant's jobs before their arrival: non-discretionary first, then the highest priority.
    private struct Rank: Equatable {
        let isDiscretionary: Bool
        let priority: Double

        init(_ job: TransferJob) {
            (isDiscretionary, priority) = (job.isDiscretionary, job.priority)
        }

        func precedes(_ other: Rank) -> Bool {
            isDiscretionary != other.isDiscretionary ? !isDiscretionary : priority > other.priority
        }
    }

    /// One tenant's queued jobs of one rank for one session and host, first come first served. Taking the
    /// front is O(1) (the front moves; the array is compacted once half of it is behind the front), so a
    /// backlog of many thousands costs nothing per start.
    private struct Line {
        private var entries: [Entry] = []
        private var front = 0

        var first: Entry? { front < entries.count ? entries[front] : nil }

        mutating func append(_ entry: Entry) { entries.append(entry) }

        /// Takes `entry` out: at the front the front moves past it and past every entry removed earlier;
        /// elsewhere it stays, dead, until the front reaches it. Returns whether the line is now empty.
        mutating func remove(_ entry: Entry, isLive: (Entry) -> Bool) -> Bool {
            guard first?.arrival == entry.arrival else { return false }
            front += 1
            while front < entries.count && !isLive(entries[front]) { front += 1 }
            if front == entries.count { return true }
            if front >= 64 && front * 2 >= entries.count {
                entries.removeFirst(front)
                front = 0
            }
            return false
        }
    }

    /// One tenant's queued jobs: a line per rank (best rank first) and per session and host, so the best
    /// job whose host has room is found by looking at the front of each line, not through the backlog.
    private struct TenantQueue {
        private var ranks: [(rank: Rank, lines: [String: Line])] = []
        private var count = 0

        mutating func append(_ entry: Entry) {
            count += 1
            let rank = Rank(entry.job)
            if let index = ranks.firstIndex(where: { $0.rank == rank }) {
                ranks[index].lines[entry.hostKey, default: Line()].append(entry)
                return
            }
            var line = Line()
            line.append(entry)
            let index = ranks.firstIndex { rank.precedes($0.rank) } ?? ranks.count
            ranks.insert((rank, [entry.hostKey: line]), at: index)
        }

        /// The best entry that may start in `room`: of the best rank that has one, the earliest to arrive.
        func best(_ room: Room) -> Entry? {
            for (rank, lines) in ranks {
                if rank.isDiscretionary && !room.allowsDiscretionary { return nil }  // the rest are discretionary too
                var best: Entry?
                for line in lines.values {
                    guard let first = line.first, first.arrival < best?.arrival ?? .max, room.hostHasRoom(first) else { continue }
                    best = first
                }
                if let best { return best }
            }
            return nil
        }

        /// Takes `entry` out; returns whether the tenant has nothing queued any more.
        mutating func remove(_ entry: Entry, isLive: (Entry) -> Bool) -> Bool {
            count -= 1
            let rank = Rank(entry.job)
            guard let index = ranks.firstIndex(where: { $0.rank == rank }),
                let emptied = ranks[index].lines[entry.hostKey]?.remove(entry, isLive: isLive)
            else { return count == 0 }
            if emptied {
                ranks[index].lines[entry.hostKey] = nil
                if ranks[index].lines.isEmpty { ranks.remove(at: index) }
            }
            return count == 0
        }
    }
}
