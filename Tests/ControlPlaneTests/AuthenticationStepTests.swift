import Testing

@testable import ControlPlane

/// `.authenticated` and `.admin` alone: the bearer token's principal (hence the tenant), and the 401 and
/// 403 problems clients get, exactly as the API has always answered them.
@Suite("Authentication steps")
struct AuthenticationStepTests {
    let step = Authentication(authenticator: Tokens.authenticator)

    /// Runs the step on a request with `authorization` as its header (none when nil).
    func admit(authorization: String?) -> (RequestHead, Problem?) {
        var head = RequestHead(
            request: makeRequest(headers: authorization.map { [(name: "authorization", value: $0)] } ?? []))
        let problem = step.admit(&head)
        return (head, problem)
    }

    @Test func aMissingTokenIsA401WithTheBearerChallenge() throws {
        let (head, problem) = admit(authorization: nil)
        let refusal = try #require(problem)
        #expect(head.request.principal == nil)
        let response = refusal.response
        #expect(response.status == 401)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("WWW-Authenticate") == #"Bearer realm="urlsessiond""#)
        let body = try ProblemBody(response)
        #expect(body.type == "urn:urlsessiond:problem:unauthorized")
        #expect(body.detail == "this endpoint needs Authorization: Bearer <token>")
        #expect(body.members["title"] as? String == "Unauthorized")
        #expect(body.status == 401)
    }

    @Test func anEmptyHeaderIsMissing() throws {
        let (_, problem) = admit(authorization: "")
        #expect(try #require(problem).detail == "this endpoint needs Authorization: Bearer <token>")
    }

    @Test(arguments: ["Basic YWxwaGE6c2VjcmV0", "alpha-token", "Bearer"])
    func anotherSchemeIsA401(authorization: String) throws {
        let (head, problem) = admit(authorization: authorization)
        let refusal = try #require(problem)
        #expect(refusal.status == 401)
        #expect(refusal.detail == "the Authorization header must use the Bearer scheme")
        #expect(refusal.response.header("WWW-Authenticate") == #"Bearer realm="urlsessiond""#)
        #expect(head.request.principal == nil)
    }

    @Test(arguments: ["Bearer wrong-token", "Bearer alpha-token2", "Bearer ALPHA-TOKEN", "Bearer alpha-token ", "Bearer  "])
    func anUnknownTokenIsA401(authorization: String) throws {
        let (head, problem) = admit(authorization: authorization)
        let refusal = try #require(problem)
        #expect(refusal.status == 401)
        #expect(refusal.type == "urn:urlsessiond:problem:unauthorized")
        #expect(refusal.detail == "the bearer token is not valid")
        #expect(head.request.principal == nil)
    }

    @Test func aValidTokenGivesItsTenant() {
        for (token, tenant, role) in [
            (Tokens.alpha, "alpha", Principal.Role.user), (Tokens.beta, "beta", .user), (Tokens.root, "ops", .admin),
        ] {
            let (head, problem) = admit(authorization: "Bearer \(token)")
            #expect(problem == nil)
            #expect(head.request.principal == Principal(tenant: tenant, role: role))
            #expect(head.request.tenant == tenant)
        }
    }

    @Test func theSchemeIsCaseInsensitive() {
        let (head, problem) = admit(authorization: "bearer \(Tokens.beta)")
        #expect(problem == nil)
        #expect(head.request.tenant == "beta")
    }

    @Test func theAdminStepRefusesOtherRolesWith403() throws {
        var user = RequestHead(request: makeRequest())
        user.request.principal = Principal(tenant: "alpha", role: .user)
        let refusal = try #require(AdminRole().admit(&user))
        #expect(refusal.status == 403)
        #expect(refusal.type == "urn:urlsessiond:problem:forbidden")
        #expect(refusal.detail == "this endpoint needs a token with the admin role")

        var nobody = RequestHead(request: makeRequest())
        #expect(AdminRole().admit(&nobody)?.status == 403)

        var admin = RequestHead(request: makeRequest())
        admin.request.principal = Principal(tenant: "ops", role: .admin)
        #expect(AdminRole().admit(&admin) == nil)
        #expect(admin.request.principal?.tenant == "ops")
    }
}
