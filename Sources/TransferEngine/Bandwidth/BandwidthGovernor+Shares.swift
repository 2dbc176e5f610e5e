import Foundation
public import TransferModels

// The division of limits into shares, and what it publishes.
extension BandwidthGovernor {
    /// The service's and tenants' limits as last read (timetables evaluated).
    struct Levels {
        var service = RateLimitRates.unlimited
        var tenant = RateLimitRates.unlimited
    }

    /// Reads the limits again when asked (timetables move on), then divides them between the flows, sets
    /// every bucket's rate, and publishes the readings.
    ///
    /// `measuring`: the flows' demands are measured again (at the end of a share period); otherwise (a flow
    /// joined, a limit changed) the last ones stand, since a period cut short measures nothing.
    func divide(now: ContinuousClock.Instant, readingLimits: Bool, measuring: Bool = false) {
        if readingLimits { readLimits(at: Date()) }
        var receiveFlows: [FairShare.Flow<TransferID>] = []
        var sendFlows: [FairShare.Flow<TransferID>] = []
        var sessionReceive: [String: Double] = [:]
        var sessionSend: [String: Double] = [:]
        for flow in flows.values {
            if measuring {
                let (receive, send) = (flow.receive.demandAndRestart(at: now), flow.send.demandAndRestart(at: now))
                flow.measured = (receive.measured, send.measured)
                flow.demand = (receive.demand, send.demand)
            }
            let task = flow.taskRates
            receiveFlows.append(
                .init(
                    key: flow.id, tenant: flow.tenant, session: flow.session, limit: task.receive.map(Double.init),
                    demand: flow.demand.receive))
            sendFlows.append(
                .init(key: flow.id, tenant: flow.tenant, session: flow.session, limit: task.send.map(Double.init), demand: flow.demand.send)
            )
            if let rate = flow.sessionRates.receive { sessionReceive[flow.session] = Double(rate) }
            if let rate = flow.sessionRates.send { sessionSend[flow.session] = Double(rate) }
        }
        let receiveShares = FairShare.shares(
            receiveFlows, service: levels.service.receive.map(Double.init), tenant: levels.tenant.receive.map(Double.init),
            sessions: sessionReceive)
        let sendShares = FairShare.shares(
            sendFlows, service: levels.service.send.map(Double.init), tenant: levels.tenant.send.map(Double.init), sessions: sessionSend)
        for flow in flows.values {
            flow.receive.setRate(receiveShares[flow.id] ?? nil, at: now)
            flow.send.setRate(sendShares[flow.id] ?? nil, at: now)
            for transfer in flow.connections.values { transfer.followReceiveShare() }
        }
        lastShares = now
        needsDivision = false
        publish()
    }

    /// Evaluates every level's limit at `date` (a timetable's period may have changed).
    func readLimits(at date: Date) {
        levels.service = serviceLimit?.rates(at: date) ?? .unlimited
        levels.tenant = tenantLimit?.rates(at: date) ?? .unlimited
        for flow in flows.values { flow.readLimits(at: date, levels: levels) }
        lastLimits = ContinuousClock.now
    }

    private func publish() {
        var readings = BandwidthReadings()
        readings.service = levels.service
        readings.tenant = levels.tenant
        for flow in flows.values {
            readings.tasks[flow.id] = BandwidthReading(
                taskLimit: flow.taskLimit, inForce: flow.inForce, receiveShare: flow.receive.rate, sendShare: flow.send.rate,
                measuredReceive: flow.measured.receive, measuredSend: flow.measured.send)
        }
        readings.holds = flows.values.reduce(retiredHolds) { ($0.receive + $1.holds.receive, $0.send + $1.holds.send) }
        published.withLock { $0 = readings }
    }
}

/// One running task's limits as the governor last divided them.
public struct BandwidthReading: Sendable, Equatable {
    /// The task's own limit the governor holds it to (what `PATCH` set last, once the loop took it).
    public var taskLimit: RateLimit?
    /// The lowest limit of its task, session, tenant and the service, timetables evaluated.
    public var inForce: RateLimitRates
    /// Its fair share of that (and of limits it shares with other transfers), bytes per second; nil: none.
    public var receiveShare: Double?
    public var sendShare: Double?
    /// What it moved over the last share period, bytes per second.
    public var measuredReceive: Double
    public var measuredSend: Double
}

/// What the governor publishes for `/metrics` and the task representation.
public struct BandwidthReadings: Sendable {
    public var service = RateLimitRates.unlimited
    /// Each tenant's limit (the same for every tenant).
    public var tenant = RateLimitRates.unlimited
    /// Running tasks with a flow (a limit could apply), by attempt.
    public var tasks: [TransferID: BandwidthReading] = [:]
    /// How many times a callback was held back by its limit, per direction, since the engine started.
    public var holds = (receive: 0, send: 0)

    public init() {}
}
