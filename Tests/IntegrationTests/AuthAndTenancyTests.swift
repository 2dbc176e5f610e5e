import Foundation
import TestSupport
import Testing

/// Bearer tokens, tenants and roles: 401 without a valid token, 404 across tenants, 403 for non-admins.
@Suite("Auth and tenancy")
struct AuthAndTenancyTests {
    @Test(.timeLimit(.minutes(1)))
    func missingWrongOrMalformedCredentialsAre401() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let url = "\(service.baseURL)/v1/sessions"
            let requests: [(String, TestHTTPRequest)] = [
                ("no token", .get(url)),
                ("wrong token", .get(url, token: "not-a-token")),
                ("empty bearer", .get(url, headers: [("Authorization", "Bearer ")])),
                ("basic scheme", .get(url, headers: [("Authorization", "Basic dG9rZW4tYTp4")])),
                ("token without scheme", .get(url, headers: [("Authorization", Tokens.tenantA)])),
                ("create without token", .post(url, json: "{}")),
                ("blob without token", .post("\(service.baseURL)/v1/blobs", body: [1, 2, 3], contentType: "application/octet-stream")),
            ]
            for (name, request) in requests {
                let response = try await client.send(request)
                expectProblem(response, status: 401, slug: "unauthorized")
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(name)")
            }
            // Nothing was created by the rejected POSTs.
            let api = API(service, client)
            #expect(try await api.sessionIDs().isEmpty)
            let blobs = service.dataDirectory.appendingPathComponent("blobs").path
            try await eventually(timeout: 5) {
                (try FileManager.default.contentsOfDirectory(atPath: blobs)).isEmpty
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anotherTenantsSessionsAndBlobsDoNotExist() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let tenantA = API(service, client, token: Tokens.tenantA)
            let tenantB = API(service, client, token: Tokens.tenantB)
            let session = try #require(try await tenantA.createSession()["id"] as? String)
            let blobResponse = try await tenantA.post("/v1/blobs", bytes: Array("hello".utf8), contentType: "text/plain")
            #expect(blobResponse.status == 201)
            let blob = try #require(try blobResponse.json()["id"] as? String)

            expectProblem(try await tenantB.get("/v1/sessions/\(session)"), status: 404, slug: "not-found")
            for action in ["flush", "reset", "finishTasksAndInvalidate", "invalidateAndCancel"] {
                expectProblem(try await tenantB.post("/v1/sessions/\(session)/\(action)"), status: 404, slug: "not-found")
            }
            expectProblem(try await tenantB.get("/v1/blobs/\(blob)"), status: 404, slug: "not-found")
            expectProblem(try await tenantB.delete("/v1/blobs/\(blob)"), status: 404, slug: "not-found")
            #expect(try await tenantB.sessionIDs().isEmpty)

            // Tenant A's resources are untouched by B's attempts.
            let own = try await tenantA.get("/v1/sessions/\(session)")
            #expect(own.status == 200)
            #expect(try own.json()["state"] as? String == "valid")
            #expect(try await tenantA.get("/v1/blobs/\(blob)").status == 200)

            // Each tenant has its own shared session.
            let sharedA = try await tenantA.get("/v1/sessions/shared").json()["id"] as? String
            let sharedB = try await tenantB.get("/v1/sessions/shared").json()["id"] as? String
            #expect(sharedA != nil && sharedB != nil && sharedA != sharedB)
            expectProblem(try await tenantB.get("/v1/sessions/\(sharedA ?? "")"), status: 404, slug: "not-found")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func adminEndpointsNeedTheAdminRole() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let url = "\(service.baseURL)/v1/admin/networks/x"
            let body = #"{"available": false}"#
            let asUser = try await client.send(.put(url, json: body, token: Tokens.tenantA))
            expectProblem(asUser, status: 403, slug: "forbidden")
            let anonymous = try await client.send(.put(url, json: body))
            expectProblem(anonymous, status: 401, slug: "unauthorized")
            let asAdmin = try await client.send(.put(url, json: body, token: Tokens.admin))
            expectProblem(asAdmin, status: 404, slug: "not-found")  // no path named x
            let overridden = try await client.send(
                .put("\(service.baseURL)/v1/admin/networks/default", json: body, token: Tokens.admin))
            #expect(overridden.status == 200, "\(overridden.text)")
            #expect(try overridden.json()["available"] as? Bool == false)
            // Every tenant sees the same paths.
            let seenByA = try await client.send(.get("\(service.baseURL)/v1/networks", token: Tokens.tenantA)).text
            let seenByB = try await client.send(.get("\(service.baseURL)/v1/networks", token: Tokens.tenantB)).text
            #expect(seenByA == seenByB && seenByA.contains(#""adminOverride":false"#), "\(seenByA)")
            // An admin token is also a token of its tenant.
            #expect(try await API(service, client, token: Tokens.admin).get("/v1/sessions").status == 200)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func tokensCanComeFromTheTokenFlag() async throws {
        try await withRunningService(arguments: ["--token", "flag-token-0123456789:tenantF:user"]) { service, client in
            let api = API(service, client, token: "flag-token-0123456789")
            #expect(try await api.get("/v1/sessions").status == 200)
            expectProblem(try await api.as(Tokens.tenantA).get("/v1/sessions"), status: 401, slug: "unauthorized")
        }
    }
}
