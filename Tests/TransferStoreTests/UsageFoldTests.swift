import Foundation
import TestSupport
import Testing
import TransferModels

@testable import TransferStore

/// PostgreSQL keeps a tenant's usage in a row per connection (`v20-tenant-usage-per-connection`); the rows
/// of connections that closed are folded into one, without changing the sums.
@Suite("Usage rows of closed connections")
struct UsageFoldTests {
    @Test(.timeLimit(.minutes(1)))
    func aClosedNodesUsageIsFoldedAndTheSumsStay() async throws {
        let nodes = try await TwoNodes.open()
        _ = try await nodes.session(on: nodes.a)
        _ = try await nodes.session(on: nodes.b)
        func rows() async throws -> Int {
            try await nodes.b.database.read { db in
                try db.value("SELECT COUNT(*) FROM tenant_usage WHERE tenant = 't1'", as: Int.self) ?? 0
            }
        }
        #expect(try await rows() == 2, "one row per writing connection")
        #expect(try await nodes.b.usage.foldUsageOfClosedConnections() == 0, "both connections are open")
        try nodes.a.close()

        // A's connections end as their sockets close: bounded wait for the server to see it.
        var folded = 0
        for _ in 0..<50 where folded == 0 {
            folded = try await nodes.b.usage.foldUsageOfClosedConnections()
            if folded == 0 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(folded == 1)
        #expect(try await nodes.b.usage.usage(tenant: "t1").sessions == 2)
        #expect(try await rows() == 2, "B's own row and shard 0")
        _ = try await nodes.session(on: nodes.b)
        #expect(try await nodes.b.usage.usage(tenant: "t1").sessions == 3)
        try nodes.b.close()
    }
}
