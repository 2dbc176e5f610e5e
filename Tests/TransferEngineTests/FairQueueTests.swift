import Foundation
import TestSupport
import Testing

@testable import TransferEngine

/// The queue that shares slots between tenants: one start per tenant per round, priority within a
/// tenant, caps and host limits respected.
@Suite("Fair queue")
struct FairQueueTests {
    static func job(_ tenant: String, _ number: Int, priority: Double = 0.5, discretionary: Bool = false) -> TransferJob {
        var job = TransferJob(
            id: TransferID(taskId: "\(tenant)-\(number)", attempt: 1), sessionId: "s-\(tenant)", kind: .data,
            request: OutgoingRequest(url: "http://127.0.0.1/", method: "GET"))
        job.tenant = tenant
        job.priority = priority
        job.isDiscretionary = discretionary
        return job
    }

    static func room(
        running: [String: Int] = [:], limit: Int = 100, discretionary: Bool = false,
        hostHasRoom: @escaping (FairQueue.Entry) -> Bool = { _ in true }
    ) -> FairQueue.Room {
        FairQueue.Room(runningPerTenant: running, tenantLimit: limit, allowsDiscretionary: discretionary, hostHasRoom: hostHasRoom)
    }

    static func drain(_ queue: inout FairQueue, _ room: FairQueue.Room = room()) -> [String] {
        var order: [String] = []
        for _ in 0..<10_000 {
            guard let (job, _) = queue.popNext(room) else { break }
            order.append(job.id.taskId)
        }
        return order
    }

    @Test func aBacklogGetsOneStartPerRoundLikeEveryOtherTenant() {
        var queue = FairQueue()
        for number in 0..<1000 { queue.append(Self.job("a", number), hostKey: "h") }
        for number in 0..<3 { queue.append(Self.job("b", number), hostKey: "h") }
        let first = (0..<6).compactMap { _ in queue.popNext(Self.room())?.job.id.taskId }
        #expect(first.filter { $0.hasPrefix("b-") }.count == 3, "\(first)")
        #expect(queue.count == 997)
    }

    @Test func priorityOrdersATenantsOwnJobsOnly() {
        var queue = FairQueue()
        queue.append(Self.job("a", 0, priority: 0.1), hostKey: "h")
        queue.append(Self.job("a", 1, priority: 0.9), hostKey: "h")
        queue.append(Self.job("a", 2, priority: 0.9), hostKey: "h")
        queue.append(Self.job("b", 0, priority: 0.0), hostKey: "h")
        let order = Self.drain(&queue)
        // a's high-priority jobs come first among a's, FIFO within a priority; b's low one still gets its turn.
        #expect(order == ["a-1", "b-0", "a-2", "a-0"], "\(order)")
    }

    @Test func aTenantAtItsCapIsPassedOver() {
        var queue = FairQueue()
        queue.append(Self.job("a", 0), hostKey: "h")
        queue.append(Self.job("b", 0), hostKey: "h")
        let room = Self.room(running: ["a": 2], limit: 2)
        #expect(queue.popNext(room)?.job.id.taskId == "b-0")
        #expect(queue.popNext(room) == nil, "a is at its cap")
        #expect(queue.popNext(Self.room(running: ["a": 1], limit: 2))?.job.id.taskId == "a-0")
        #expect(queue.isEmpty)
    }

    @Test func aJobWhoseHostIsFullWaitsAndTheNextOneStarts() {
        var queue = FairQueue()
        queue.append(Self.job("a", 0), hostKey: "full")
        queue.append(Self.job("a", 1), hostKey: "free")
        let room = Self.room(hostHasRoom: { $0.hostKey != "full" })
        #expect(queue.popNext(room)?.job.id.taskId == "a-1")
        #expect(queue.popNext(room) == nil)
        #expect(queue.count == 1)
    }

    @Test func discretionaryJobsStartOnlyWhenAllowed() {
        var queue = FairQueue()
        queue.append(Self.job("a", 0, discretionary: true), hostKey: "h")
        queue.append(Self.job("a", 1), hostKey: "h")
        #expect(queue.popNext(Self.room())?.job.id.taskId == "a-1")
        #expect(queue.popNext(Self.room()) == nil)
        #expect(queue.popNext(Self.room(discretionary: true))?.job.id.taskId == "a-0")
    }

    @Test func removalKeepsTheRoundConsistent() {
        var queue = FairQueue()
        for tenant in ["a", "b", "c"] {
            for number in 0..<3 { queue.append(Self.job(tenant, number), hostKey: "h") }
        }
        #expect(queue.remove(TransferID(taskId: "b-1", attempt: 1))?.id.taskId == "b-1")
        #expect(queue.remove(TransferID(taskId: "b-1", attempt: 1)) == nil)
        let gone = queue.removeAll { $0.tenant == "c" }
        #expect(gone.count == 3)
        let order = Self.drain(&queue)
        #expect(order.sorted() == ["a-0", "a-1", "a-2", "b-0", "b-2"], "\(order)")
        #expect(order.prefix(4).filter { $0.hasPrefix("a-") }.count == 2, "still in turn: \(order)")
        #expect(queue.isEmpty && queue.count == 0)
    }

    /// Random appends, removals and starts: the count stays right and every job comes out exactly once.
    @Test(arguments: 0..<20)
    func everyJobComesOutOnce(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var queue = FairQueue()
        var queued: Set<String> = []
        var seen: Set<String> = []
        for step in 0..<2000 {
            switch random.next() % 4 {
            case 0, 1:
                let job = Self.job(["a", "b", "c", "d"][Int(random.next() % 4)], step, priority: Double(random.next() % 3) / 2)
                queue.append(job, hostKey: "h")
                queued.insert(job.id.taskId)
            case 2:
                if let (job, _) = queue.popNext(Self.room()) {
                    #expect(queued.remove(job.id.taskId) != nil && seen.insert(job.id.taskId).inserted)
                }
            default:
                if let id = queued.randomElement(using: &random) {
                    #expect(queue.remove(TransferID(taskId: id, attempt: 1))?.id.taskId == id)
                    queued.remove(id)
                }
            }
            #expect(queue.count == queued.count)
        }
        let rest = Self.drain(&queue)
        #expect(Set(rest) == queued && rest.count == queued.count)
    }

    /// One tenant's jobs come out as a plain sort would give them: of the jobs whose host has room, the
    /// best by (non-discretionary, priority, arrival); discretionary ones only when allowed. Checked against
    /// that sort over random appends, removals and rooms.
    @Test(arguments: 0..<20)
    func aTenantsJobsComeOutInTheOrderOfASort(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var queue = FairQueue()
        // The model: (job, host, arrival) in arrival order.
        var model: [(job: TransferJob, host: String, arrival: Int)] = []
        func precedes(_ a: (job: TransferJob, host: String, arrival: Int), _ b: (job: TransferJob, host: String, arrival: Int)) -> Bool {
            if a.job.isDiscretionary != b.job.isDiscretionary { return !a.job.isDiscretionary }
            if a.job.priority != b.job.priority { return a.job.priority > b.job.priority }
            return a.arrival < b.arrival
        }
        for step in 0..<3000 {
            switch random.next() % 5 {
            case 0, 1:
                let job = Self.job("a", step, priority: Double(random.next() % 3) / 2, discretionary: random.next() % 4 == 0)
                let host = "h\(random.next() % 3)"
                queue.append(job, hostKey: host)
                model.append((job, host, step))
            case 2, 3:
                let full: Set<String> = Set((0..<3).filter { _ in random.next() % 3 == 0 }.map { "h\($0)" })
                let discretionary = random.next() % 2 == 0
                let expected = model.sorted(by: precedes).first { entry in
                    !full.contains(entry.host) && (discretionary || !entry.job.isDiscretionary)
                }
                let popped = queue.popNext(Self.room(discretionary: discretionary, hostHasRoom: { !full.contains($0.hostKey) }))
                #expect(popped?.job.id == expected?.job.id && popped?.hostKey == expected?.host, "step \(step)")
                if let popped { model.removeAll { $0.job.id == popped.job.id } }
            default:
                if let victim = model.randomElement(using: &random) {
                    #expect(queue.remove(victim.job.id)?.id == victim.job.id)
                    model.removeAll { $0.job.id == victim.job.id }
                }
            }
            #expect(queue.count == model.count)
        }
    }

    /// A backlog of tens of thousands appends and drains in linear time (an append or a start copied the
    /// whole backlog once; 10,000 queued tasks then cost seconds of CPU).
    @Test func aLargeBacklogDrains() {
        var queue = FairQueue()
        for number in 0..<50_000 { queue.append(Self.job(number % 7 == 0 ? "b" : "a", number), hostKey: "h\(number % 2)") }
        var started = 0
        for room in [Self.room(hostHasRoom: { $0.hostKey == "h0" }), Self.room()] {  // h1 full at first
            for _ in 0..<50_001 {
                guard queue.popNext(room) != nil else { break }
                started += 1
            }
        }
        #expect(started == 50_000 && queue.isEmpty)
    }
}
