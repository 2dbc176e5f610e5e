/// `.authenticated`: the principal of the request's bearer token, or the 401 (with `WWW-Authenticate`)
/// that a missing, malformed or unknown token gets (`TokenAuthenticator`).
struct Authentication: HeadStep {
    let authenticator: TokenAuthenticator

    func admit(_ head: inout RequestHead) -> Problem? {
        switch authenticator.authenticate(authorization: head.request.header("authorization")) {
        case .failure(let problem):
            return problem
        case .success(let principal):
            head.request.principal = principal
            return nil
        }
    }
}

/// `.admin`: a principal with the admin role (set by `Authentication` before it), or 403.
struct AdminRole: HeadStep {
    func admit(_ head: inout RequestHead) -> Problem? {
        guard head.request.principal?.role == .admin else { return .forbidden("this endpoint needs a token with the admin role") }
        return nil
    }
}
