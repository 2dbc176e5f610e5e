import Foundation
import TestSupport
import Testing

/// `URLSessionConfiguration.background(withIdentifier:)` re-attach: one live session per identifier and tenant.
@Suite("Background sessions")
struct BackgroundSessionTests {
    static let body = #"{"configuration":{"kind":"background","identifier":"com.example.nightly"}}"#

    @Test(.timeLimit(.minutes(1)))
    func sameIdentifierReattachesToTheLiveSession() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let first = try await api.createSession(json: Self.body)
            let id = try #require(first["id"] as? String)

            let again = try await api.post("/v1/sessions", json: Self.body)
            #expect(again.status == 200)
            let reattached = try again.json()
            #expect(reattached["id"] as? String == id)
            #expect(again.header("Location") == "/v1/sessions/\(id)")
            expectSameJSON(reattached, first, "the re-attach answer differs from the 201:")
            #expect(try await api.sessionIDs() == [id])
            // Each re-attach ends the events the client missed with didFinishEventsForBackgroundURLSession.
            let events = try await api.allEvents("/v1/sessions/\(id)/events")
            #expect(events.compactMap(\.eventType) == ["session.didFinishEventsForBackgroundURLSession"])
            #expect(events.first?.eventData?.isEmpty == true)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func afterInvalidationTheIdentifierMakesANewSession() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let old = try #require(try await api.createSession(json: Self.body)["id"] as? String)
            #expect(try await api.post("/v1/sessions/\(old)/invalidateAndCancel").status == 200)

            let fresh = try await api.createSession(json: Self.body, expecting: 201)
            let new = try #require(fresh["id"] as? String)
            #expect(new != old)
            #expect(fresh["state"] as? String == "valid")
            #expect(try await api.get("/v1/sessions/\(old)").json()["state"] as? String == "invalidated")

            let reattached = try await api.createSession(json: Self.body, expecting: 200)
            #expect(reattached["id"] as? String == new)
            #expect(try await api.sessionIDs() == [old, new])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func eachTenantHasItsOwnSessionForAnIdentifier() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let tenantA = API(service, client, token: Tokens.tenantA)
            let tenantB = API(service, client, token: Tokens.tenantB)
            let idA = try #require(try await tenantA.createSession(json: Self.body)["id"] as? String)
            let idB = try #require(try await tenantB.createSession(json: Self.body, expecting: 201)["id"] as? String)
            #expect(idA != idB)
            #expect(try await tenantA.createSession(json: Self.body, expecting: 200)["id"] as? String == idA)
            #expect(try await tenantB.createSession(json: Self.body, expecting: 200)["id"] as? String == idB)
            #expect(try await tenantA.sessionIDs() == [idA])
            #expect(try await tenantB.sessionIDs() == [idB])
        }
    }
}
