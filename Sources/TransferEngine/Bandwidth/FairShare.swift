/// Max-min fair division of bandwidth limits over the hierarchy service ⊃ tenant ⊃ session ⊃ task, for one
/// direction. Pure values: the governor feeds it each flow's limits and demand and applies the shares.
///
/// At every level the capacity (the lower of the level's own limit and what its parent gave it) is
/// water-filled between the children: a child that wants less than an equal part gets what it wants, and
/// what it leaves goes to the others in equal parts. So a 4 MB/s session limit over four busy transfers
/// gives each 1 MB/s, and when one of them takes only 100 kB/s the other three get 1.3 MB/s each.
public enum FairShare {
    /// One transfer (a segmented download's connections together) as the division sees it.
    public struct Flow<Key: Hashable>: Sendable where Key: Sendable {
        public var key: Key
        public var tenant: String
        public var session: String
        /// The task's own limit (bytes per second); nil: none.
        public var limit: Double?
        /// The most it would take now; nil: as much as it is given (it was held back by its limit).
        public var demand: Double?

        public init(key: Key, tenant: String, session: String, limit: Double?, demand: Double?) {
            (self.key, self.tenant, self.session, self.limit, self.demand) = (key, tenant, session, limit, demand)
        }
    }

    /// Each flow's share in bytes per second (nil: unlimited, no level above it has a limit).
    /// - Parameters:
    ///   - service: the whole service's limit; `tenant`: each tenant's; `sessions`: each session's (absent: none).
    public static func shares<Key>(
        _ flows: [Flow<Key>], service: Double?, tenant: Double?, sessions: [String: Double]
    ) -> [Key: Double?] {
        var root = Node<Key>(limit: service)
        for tenantFlows in Dictionary(grouping: flows, by: \.tenant).values {
            var tenantNode = Node<Key>(limit: tenant)
            for (session, sessionFlows) in Dictionary(grouping: tenantFlows, by: \.session) {
                var sessionNode = Node<Key>(limit: sessions[session])
                sessionNode.children = sessionFlows.map { Node(limit: $0.limit, leafDemand: $0.demand ?? .infinity, key: $0.key) }
                tenantNode.children.append(sessionNode)
            }
            root.children.append(tenantNode)
        }
        var result: [Key: Double?] = [:]
        root.allocate(capacity: nil) { key, share in result[key] = share }
        return result
    }

    /// A level of the hierarchy (or a flow, its leaf).
    struct Node<Key: Hashable> {
        var limit: Double?
        var children: [Node] = []
        var leafDemand: Double?
        var key: Key?

        /// The most the subtree would take: its flows' demands, bounded by every limit on the way.
        var demand: Double {
            let wanted = leafDemand ?? children.reduce(0) { $0 + $1.demand }
            return min(limit ?? .infinity, wanted)
        }

        /// Gives the subtree `capacity` (nil: unlimited) and reports each leaf's share.
        func allocate(capacity: Double?, report: (Key, Double?) -> Void) {
            let available: Double? =
                switch (capacity, limit) {
                case (nil, nil): nil
                case (let c?, nil): c
                case (nil, let l?): l
                case (let c?, let l?): min(c, l)
                }
            if let key { return report(key, available) }
            guard let available else {
                for child in children { child.allocate(capacity: nil, report: report) }
                return
            }
            let given = FairShare.waterFill(available, demands: children.map(\.demand))
            for (child, share) in zip(children, given) { child.allocate(capacity: share, report: report) }
        }
    }

    /// Max-min division of `capacity` between `demands` (infinite: takes any amount), in their order. What
    /// the demands leave unused stays undivided, so a flow that wants little is not handed bytes it would
    /// burst with later; its demand is measured again and grows as it uses its share.
    public static func waterFill(_ capacity: Double, demands: [Double]) -> [Double] {
        var shares = Array(repeating: 0.0, count: demands.count)
        var remaining = max(0, capacity)
        var open = demands.indices.sorted { demands[$0] < demands[$1] }[...]
        while let next = open.first {
            let equal = remaining / Double(open.count)
            if demands[next] <= equal {
                shares[next] = demands[next]
                remaining -= demands[next]
                open = open.dropFirst()
            } else {
                for index in open { shares[index] = equal }
                break
            }
        }
        return shares
    }
}
