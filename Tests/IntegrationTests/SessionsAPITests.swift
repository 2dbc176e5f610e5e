import Foundation
import TestSupport
import Testing

/// `/v1/sessions…` against the real binary: creation per kind, delegates, reads, lists, actions.
@Suite("Sessions API")
struct SessionsAPITests {
    /// A well-formed id (`ses_` + 22 base62 characters) that no session has.
    static let unknownID = "ses_" + String(repeating: "A", count: 22)

    /// A delegate at an address the egress policy refuses could never get a webhook: 422 when it is given
    /// (created or patched), naming the setting that would allow it. A host name is judged when a POST is
    /// made, and an allowed address is taken.
    @Test(.timeLimit(.minutes(1)))
    func aDelegateTheEgressPolicyRefusesIsRefusedWhenGiven() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            for url in ["http://10.0.0.5/hooks", "http://localhost:9/hooks", "http://[::1]:9/hooks", "http://169.254.169.254/x"] {
                let response = try await api.post("/v1/sessions", json: #"{"delegate": {"url": "\#(url)"}}"#)
                #expect(response.status == 422, "\(url): \(response.text)")
                let problem = try response.json()
                #expect(problem["field"] as? String == "delegate.url")
                #expect((problem["detail"] as? String)?.contains("URLSESSIOND_EGRESS_ALLOW") == true, "\(problem)")
            }
            let created = try await api.post("/v1/sessions", json: #"{"delegate": {"url": "https://consumer.example/hooks"}}"#)
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(try created.json()["id"] as? String)
            let patched = try await client.send(
                .patch(api.base + "/v1/sessions/\(id)", json: #"{"delegate": {"url": "http://192.168.1.10/hooks"}}"#, token: api.token))
            #expect(patched.status == 422 && patched.text.contains("delegate.url"), "\(patched.text)")
        }
        let allowing = Tokens.environment.merging(["URLSESSIOND_EGRESS_ALLOW": "10.0.0.0/8"]) { $1 }
        try await withRunningService(environment: allowing) { service, client in
            let response = try await API(service, client).post("/v1/sessions", json: #"{"delegate": {"url": "http://10.0.0.5/hooks"}}"#)
            #expect(response.status == 201, "\(response.text)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func createsADefaultSessionWithTheFullNormalizedConfiguration() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let response = try await api.post("/v1/sessions", json: "{}")
            #expect(response.status == 201)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let session = try response.json()
            let id = try #require(session["id"] as? String)
            #expect(id.hasPrefix("ses_"))
            #expect(response.header("Location") == "/v1/sessions/\(id)")
            #expect(session["state"] as? String == "valid")
            #expect(isNull(session["delegate"]))
            #expect(isNull(session["sessionDescription"]))
            #expect(session["createdAt"] is String)

            let configuration = try #require(session["configuration"] as? [String: Any])
            let expectedKeys: Set<String> = [
                "kind", "identifier", "httpAdditionalHeaders", "timeoutIntervalForRequest", "timeoutIntervalForResource",
                "httpMaximumConnectionsPerHost", "httpShouldUsePipelining", "requestCachePolicy", "urlCache",
                "httpShouldSetCookies", "httpCookieAcceptPolicy", "httpCookieStorage", "urlCredentialStorage",
                "allowsCellularAccess", "allowsExpensiveNetworkAccess", "allowsConstrainedNetworkAccess",
                "waitsForConnectivity", "isDiscretionary", "sessionSendsLaunchEvents",
                "shouldUseExtendedBackgroundIdleMode", "sharedContainerIdentifier", "requiresDNSSECValidation",
                "tlsMinimumSupportedProtocolVersion",
                "tlsMaximumSupportedProtocolVersion", "connectionProxyDictionary", "networkServiceType", "serverTrust",
                "segments", "multipathServiceType", "rateLimit",
            ]
            #expect(Set(configuration.keys) == expectedKeys)
            #expect(configuration["kind"] as? String == "default")
            #expect(isNull(configuration["identifier"]))
            #expect((configuration["httpAdditionalHeaders"] as? [String: Any])?.isEmpty == true)
            #expect(number(configuration["timeoutIntervalForRequest"]) == 60)
            #expect(number(configuration["timeoutIntervalForResource"]) == 604_800)
            #expect(number(configuration["httpMaximumConnectionsPerHost"]) == 6)
            #expect(bool(configuration["httpShouldUsePipelining"]) == false)
            #expect(configuration["requestCachePolicy"] as? String == "useProtocolCachePolicy")
            let cache = try #require(configuration["urlCache"] as? [String: Any])
            #expect(cache["storage"] as? String == "shared", "URLCache.shared: the capacities are the service's")
            #expect(cache.count == 1, "\(cache)")
            #expect(bool(configuration["httpShouldSetCookies"]) == true)
            #expect(configuration["httpCookieAcceptPolicy"] as? String == "onlyFromMainDocumentDomain")
            #expect(configuration["httpCookieStorage"] as? String == "shared")
            #expect(configuration["urlCredentialStorage"] as? String == "shared")
            #expect(bool(configuration["allowsCellularAccess"]) == true)
            #expect(bool(configuration["waitsForConnectivity"]) == false)
            #expect(bool(configuration["isDiscretionary"]) == false)
            #expect(bool(configuration["sessionSendsLaunchEvents"]) == true)
            #expect(configuration["tlsMinimumSupportedProtocolVersion"] as? String == "TLSv12")
            #expect(configuration["tlsMaximumSupportedProtocolVersion"] as? String == "TLSv13")
            #expect(isNull(configuration["connectionProxyDictionary"]))
            #expect(configuration["networkServiceType"] as? String == "default")
            #expect(configuration["multipathServiceType"] as? String == "none")

            let read = try await api.get("/v1/sessions/\(id)")
            #expect(read.status == 200)
            expectSameJSON(try read.json(), session, "GET differs from the 201:")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func ephemeralAndBackgroundSessionsGetTheirKindsDefaults() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let ephemeral = try #require(
                try await api.createSession(json: #"{"configuration":{"kind":"ephemeral"}}"#)["configuration"]
                    as? [String: Any])
            #expect(ephemeral["kind"] as? String == "ephemeral")
            #expect(isNull(ephemeral["identifier"]))
            #expect(ephemeral["httpCookieStorage"] as? String == "private")
            #expect(ephemeral["urlCredentialStorage"] as? String == "private")
            let ephemeralCache = try #require(ephemeral["urlCache"] as? [String: Any])
            #expect(ephemeralCache["storage"] as? String == "private")
            #expect(number(ephemeralCache["diskCapacity"]) == 0)
            #expect(number(ephemeralCache["memoryCapacity"]) == 512_000)
            #expect(bool(ephemeral["waitsForConnectivity"]) == false)
            #expect(number(ephemeral["timeoutIntervalForRequest"]) == 60)

            let body = #"{"configuration":{"kind":"background","identifier":"com.example.nightly"}}"#
            let background = try #require(try await api.createSession(json: body)["configuration"] as? [String: Any])
            #expect(background["kind"] as? String == "background")
            #expect(background["identifier"] as? String == "com.example.nightly")
            #expect(bool(background["waitsForConnectivity"]) == true)
            #expect(background["httpCookieStorage"] as? String == "shared")
            #expect(background["urlCredentialStorage"] as? String == "shared")
            #expect((background["urlCache"] as? [String: Any])?["storage"] as? String == "shared")
            #expect(bool(background["sessionSendsLaunchEvents"]) == true)
            #expect(bool(background["isDiscretionary"]) == false)
            #expect(number(background["timeoutIntervalForResource"]) == 604_800)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func explicitValuesAreKeptAsGiven() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let session = try await api.createSession(
                json: #"""
                    {"configuration": {"kind": "default", "timeoutIntervalForRequest": 12.5,
                      "httpAdditionalHeaders": {"X-Api-Token": "abc"}, "httpMaximumConnectionsPerHost": 64,
                      "urlCache": null, "requestCachePolicy": "reloadIgnoringLocalCacheData",
                      "connectionProxyDictionary": {"HTTPSEnable": true, "HTTPSProxy": "proxy.internal", "HTTPSPort": 3128},
                      "networkServiceType": "responsiveData", "multipathServiceType": "handover"},
                     "sessionDescription": "nightly exports"}
                    """#)
            let configuration = try #require(session["configuration"] as? [String: Any])
            #expect(number(configuration["timeoutIntervalForRequest"]) == 12.5)
            #expect((configuration["httpAdditionalHeaders"] as? [String: String]) == ["X-Api-Token": "abc"])
            #expect(number(configuration["httpMaximumConnectionsPerHost"]) == 64)
            #expect(isNull(configuration["urlCache"]))
            #expect(configuration["requestCachePolicy"] as? String == "reloadIgnoringLocalCacheData")
            let proxy = try #require(configuration["connectionProxyDictionary"] as? [String: Any])
            #expect(proxy["HTTPSProxy"] as? String == "proxy.internal")
            #expect(number(proxy["HTTPSPort"]) == 3128)
            #expect(configuration["networkServiceType"] as? String == "responsiveData")
            #expect(configuration["multipathServiceType"] as? String == "handover")
            #expect(session["sessionDescription"] as? String == "nightly exports")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func delegateSecretIsReturnedOnlyWhenGeneratedAndOnlyOnce() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let chosen = "whsec_" + Data(repeating: 7, count: 32).base64EncodedString()
            let withSecret = try await api.createSession(
                json: #"{"delegate":{"url":"https://consumer.example/hooks","secret":"\#(chosen)"}}"#)
            let given = try #require(withSecret["delegate"] as? [String: Any])
            #expect(given["url"] as? String == "https://consumer.example/hooks")
            #expect(given["events"] as? [String] == ["*"])
            #expect((given["decisions"] as? [Any])?.isEmpty == true)
            #expect(number(given["decisionTimeout"]) == 10)
            #expect(number(given["progressInterval"]) == 0.5)
            #expect(number(given["progressStep"]) == 0.05)
            #expect(given["secret"] == nil || isNull(given["secret"]), "a client's own secret is never echoed")

            let generated = try await api.createSession(
                json: #"{"delegate":{"url":"http://consumer.example/h","events":["task.didCompleteWithError"],"#
                    + #""decisions":["task.willPerformHTTPRedirection"]}}"#)
            let delegate = try #require(generated["delegate"] as? [String: Any])
            let secret = try #require(delegate["secret"] as? String)
            #expect(secret.hasPrefix("whsec_"))
            let key = try #require(Data(base64Encoded: String(secret.dropFirst("whsec_".count))))
            #expect((24...64).contains(key.count))
            #expect(delegate["decisions"] as? [String] == ["task.willPerformHTTPRedirection"])
            #expect(delegate["events"] as? [String] == ["task.didCompleteWithError"])

            let id = try #require(generated["id"] as? String)
            let read = try await api.get("/v1/sessions/\(id)")
            #expect(read.status == 200)
            #expect(!read.text.contains("whsec_"), "GET must not reveal the secret: \(read.text)")
            let readDelegate = try #require(try read.json()["delegate"] as? [String: Any])
            #expect(readDelegate["secret"] == nil || isNull(readDelegate["secret"]))
            #expect(readDelegate["url"] as? String == "http://consumer.example/h")
            let list = try await api.get("/v1/sessions")
            #expect(list.status == 200)
            #expect(!list.text.contains("whsec_"), "the list must not reveal secrets")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func listPaginatesInCreationOrder() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            var created: [String] = []
            for _ in 0..<5 { created.append(try #require(try await api.createSession()["id"] as? String)) }

            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let response = try await api.get("/v1/sessions?limit=2" + (cursor.map { "&after=\($0)" } ?? ""))
                try #require(response.status == 200, "\(response.text)")
                let page = try response.json()
                let items = try #require(page["items"] as? [[String: Any]])
                #expect(items.count <= 2)
                seen += items.compactMap { $0["id"] as? String }
                cursor = page["nextCursor"] as? String
                if cursor == nil { #expect(isNull(page["nextCursor"]), "nextCursor must be present as null") }
                pages += 1
            } while cursor != nil && pages < 10
            #expect(seen == created)
            #expect(pages == 3)

            let all = try await api.get("/v1/sessions").json()
            #expect((all["items"] as? [[String: Any]])?.count == 5)
            #expect(isNull(all["nextCursor"]))

            for limit in ["0", "1001", "abc", "-1"] {
                expectProblem(try await api.get("/v1/sessions?limit=\(limit)"), status: 422, slug: "invalid-value", field: "limit")
            }
            for cursor in ["zzz", "c!!", "c-1", "c1", "czzzzzzzzzzzzzzzzzzz"] {
                expectProblem(try await api.get("/v1/sessions?after=\(cursor)"), status: 400, slug: "invalid-cursor", field: "after")
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func sharedSessionIsStableAndCannotBeInvalidated() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let first = try await api.get("/v1/sessions/shared")
            #expect(first.status == 200)
            let shared = try first.json()
            let id = try #require(shared["id"] as? String)
            #expect(try await api.get("/v1/sessions/shared").json()["id"] as? String == id)
            #expect((shared["configuration"] as? [String: Any])?["kind"] as? String == "default")
            #expect(isNull(shared["delegate"]))
            #expect(try await api.get("/v1/sessions/\(id)").json()["id"] as? String == id)

            #expect(try await api.post("/v1/sessions/shared/flush").status == 204)
            #expect(try await api.post("/v1/sessions/shared/reset").status == 204)
            for target in ["shared", id] {
                for action in ["finishTasksAndInvalidate", "invalidateAndCancel"] {
                    expectProblem(try await api.post("/v1/sessions/\(target)/\(action)"), status: 409, slug: "conflict")
                }
            }
            #expect(try await api.get("/v1/sessions/shared").json()["state"] as? String == "valid")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func invalidationIsFinalAndRepeatable() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            for action in ["finishTasksAndInvalidate", "invalidateAndCancel"] {
                let id = try #require(try await api.createSession()["id"] as? String)
                for _ in 0..<2 {
                    let response = try await api.post("/v1/sessions/\(id)/\(action)")
                    #expect(response.status == 200, "\(action): \(response.text)")
                    let session = try response.json()
                    #expect(session["id"] as? String == id)
                    #expect(session["state"] as? String == "invalidated")
                }
                #expect(try await api.get("/v1/sessions/\(id)").json()["state"] as? String == "invalidated")
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func flushAndResetAnswerNoContentAndUnknownIdsAreNotFound() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let id = try #require(try await api.createSession()["id"] as? String)
            for action in ["flush", "reset"] {
                let response = try await api.post("/v1/sessions/\(id)/\(action)")
                #expect(response.status == 204)
                #expect(response.body.isEmpty)
            }
            for unknown in [Self.unknownID, "nope"] {
                expectProblem(try await api.get("/v1/sessions/\(unknown)"), status: 404, slug: "not-found")
                for action in ["flush", "reset", "finishTasksAndInvalidate", "invalidateAndCancel"] {
                    expectProblem(try await api.post("/v1/sessions/\(unknown)/\(action)"), status: 404, slug: "not-found")
                }
            }
            #expect(try await api.sessionIDs() == [id])
        }
    }
}
