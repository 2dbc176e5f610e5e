public import Foundation

/// Who holds a named lease, and until when.
public struct LeaseHolder: Sendable, Equatable {
    public var node: String
    public var expiresAt: Date
}

/// Named leases (the `lease` table): a lease is one node's until it expires, so among the nodes sharing
/// the database one at a time does what it names (`delivery:<session>`: delivering the session's webhooks).
/// A node renews a lease while it works and releases it when done; a node that dies (kill -9) loses it
/// when it expires, to whichever node takes it next.
///
/// Expiry times are the taking node's clock (`Date.storageText`, compared as text): the nodes' clocks must
/// agree to well within a lease's duration (NTP does).
extension ClusterStore {
    /// Takes, or renews, the lease `name` for `node` until `duration` from now; whether `node` holds it.
    public func acquireLease(name: String, node: String, duration: Duration) async throws -> Bool {
        try await acquireLeases(names: [name], node: node, duration: duration).contains(name)
    }

    /// Takes, or renews, each of the leases `names` for `node` until `duration` from now, where it is free,
    /// expired, or already `node`'s: one statement per hundred names, atomic for each (an upsert whose
    /// update applies only then). Returns the names `node` holds now.
    public func acquireLeases(names: [String], node: String, duration: Duration) async throws -> Set<String> {
        let unique = Array(Set(names))
        guard !unique.isEmpty else { return [] }
        let now = Date()
        let expiresAt = now.addingTimeInterval(duration.seconds)
        return try await database.write { db in
            var held: Set<String> = []
            for start in stride(from: 0, to: unique.count, by: 100) {
                let chunk = unique[start..<min(start + 100, unique.count)]
                var arguments: [StoreValue] = []
                for name in chunk { arguments += [name.storeValue, node.storeValue, expiresAt.storeValue] }
                arguments.append(now.storeValue)
                let values = Array(repeating: "(?, ?, ?)", count: chunk.count).joined(separator: ", ")
                let names = try db.values(
                    """
                    INSERT INTO lease (name, node, expiresAt) VALUES \(values)
                    ON CONFLICT (name) DO UPDATE SET node = excluded.node, expiresAt = excluded.expiresAt
                    WHERE lease.expiresAt <= ? OR lease.node = excluded.node
                    RETURNING name
                    """, arguments, as: String.self)
                held.formUnion(names)
            }
            return held
        }
    }

    /// Gives up the lease `name` if `node` holds it.
    public func releaseLease(name: String, node: String) async throws {
        try await releaseLeases(names: [name], node: node)
    }

    /// Gives up each of the leases `names` that `node` holds (another node's are left alone).
    public func releaseLeases(names: [String], node: String) async throws {
        guard !names.isEmpty else { return }
        try await database.write { db in
            for start in stride(from: 0, to: names.count, by: 100) {
                let chunk = names[start..<min(start + 100, names.count)]
                try db.execute(
                    "DELETE FROM lease WHERE node = ? AND name IN (\(StoreSQL.placeholders(chunk.count)))",
                    [node.storeValue] + chunk.map(\.storeValue))
            }
        }
    }

    /// Who holds the lease `name` (nil: nobody ever did, or it was released); it may have expired.
    public func leaseHolder(name: String) async throws -> LeaseHolder? {
        try await database.read { db in
            try db.row("SELECT node, expiresAt FROM lease WHERE name = ?", name).map { row in
                LeaseHolder(node: try row.decode(forColumn: "node"), expiresAt: try row.decode(forColumn: "expiresAt"))
            }
        }
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
