import Foundation
import TestSupport
import Testing

/// `?after=` cursors are opaque and bound to their tenant and list: they show no row id (which would
/// tell a tenant how much the others create), and one given to another tenant, another list, or made up
/// is a 400 naming `after`.
@Suite("List cursors")
struct ListCursorsTests {
    static var pattern: Regex<Substring> { /^[A-Za-z0-9_-]{48}$/ }

    /// The first page's `nextCursor` of `path` (with `limit=1`, so there is one when two items exist).
    static func cursor(_ api: API, _ path: String) async throws -> String {
        let separator = path.contains("?") ? "&" : "?"
        let response = try await api.get(path + separator + "limit=1")
        try #require(response.status == 200, "\(response.text)")
        return try #require(try response.json()["nextCursor"] as? String, "\(response.text)")
    }

    @Test(.timeLimit(.minutes(1)))
    func cursorsAreOpaqueAndOnlyServeTheirTenantAndList() async throws {
        try await withTaskService { api, _ in
            let other = api.as(Tokens.tenantB)
            // Interleaved, so tenant A's second session is not the row after its first.
            for _ in 0..<2 {
                try await api.createSession()
                try await other.createSession()
            }
            let session = try await api.makeSession()
            for _ in 0..<2 {
                _ = try await api.createTask(session: session, ["kind": "data", "request": ["url": "https://example.com/"]])
            }
            let lists = ["/v1/sessions", "/v1/sessions/\(session)/tasks"]
            for list in lists {
                let cursor = try await Self.cursor(api, list)
                #expect(cursor.wholeMatch(of: Self.pattern) != nil, "\(list): \(cursor)")
                let decoded = Data(base64Encoded: cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/"))
                #expect(decoded?.count == 36, "nonce, sealed position, tag")
                let next = try await api.get(list + "?limit=1&after=\(cursor)")
                #expect(next.status == 200, "\(list): \(next.text)")

                // Another tenant, another list, an altered cursor, one of the old clear form.
                expectProblem(try await other.get("/v1/sessions?after=\(cursor)"), status: 400, slug: "invalid-cursor", field: "after")
                let elsewhere = list == lists[0] ? lists[1] : lists[0]
                expectProblem(try await api.get(elsewhere + "?after=\(cursor)"), status: 400, slug: "invalid-cursor", field: "after")
                var altered = Array(cursor)
                altered[20] = altered[20] == "A" ? "B" : "A"
                expectProblem(
                    try await api.get(list + "?after=\(String(altered))"), status: 400, slug: "invalid-cursor", field: "after")
                expectProblem(try await api.get(list + "?after=c5"), status: 400, slug: "invalid-cursor", field: "after")
                expectProblem(try await api.get(list + "?after="), status: 400, slug: "invalid-cursor", field: "after")
            }
            // The in-memory lists too.
            let networks = try await api.get("/v1/networks?after=c1")
            expectProblem(networks, status: 400, slug: "invalid-cursor", field: "after")
            expectProblem(try await api.get("/v1/credentials?after=c1"), status: 400, slug: "invalid-cursor", field: "after")
            expectProblem(
                try await api.get("/v1/sessions/\(session)/cookies?after=c1"), status: 400, slug: "invalid-cursor", field: "after")
        }
    }
}
