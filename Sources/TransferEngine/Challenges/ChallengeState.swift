import Curl
import Foundation
import TransferModels

/// What a task has learned answering HTTP challenges (401 and 407): the credentials it sends now, how many
/// failed, the methods the delegate turned away, and what the default handling already tried. Kept by its
/// `Transfer` for all the requests of the task (redirects, authentication rounds); a part connection of a
/// segmented download starts with the credentials only.
struct ChallengeState {
    /// The credential the delegate gave, for its protection space only (never sent to another origin).
    private(set) var credential: (user: String, password: String, method: AuthenticationChallenge.Method, origin: String)?
    /// The credential for the job's proxy (its 407), sent to that proxy on every request of the task.
    private(set) var proxyCredential: (user: String, password: String, method: AuthenticationChallenge.Method)?
    private var failures = 0
    /// Methods whose protection space the delegate rejected (`rejectProtectionSpace`), by proxy-ness: the
    /// next challenge offered is another one.
    private var rejectedMethods: Set<String> = []
    /// Credentials the default handling already sent (`user`, `password`, protection space): never twice.
    private var defaultCredentialsTried: Set<[String]> = []

    /// What a part connection of the task starts with: the credentials settled, nothing of how.
    var credentialsOnly: ChallengeState {
        var state = ChallengeState()
        (state.credential, state.proxyCredential) = (credential, proxyCredential)
        return state
    }

    /// The challenge of a 401, or of a proxy's 407 (when the job has a `proxy`): of the methods the
    /// response offers and the delegate did not reject, the strongest (Negotiate, NTLM, Digest, Basic), as
    /// CFNetwork picks.
    func challenge(in head: ResponseHead, of request: OutgoingRequest, proxy: String?) -> AuthenticationChallenge? {
        let isProxy = head.statusCode == 407
        guard head.statusCode == 401 || (isProxy && proxy != nil),
            let origin = URLComponents(string: isProxy ? proxy! : request.url), let host = origin.host
        else { return nil }
        let field = isProxy ? "proxy-authenticate" : "www-authenticate"
        let offers = head.fields.filter { $0.name.caseInsensitiveEquals(field) }.flatMap { Self.offers(in: $0.value) }
        for method in AuthenticationChallenge.Method.httpByStrength
        where !rejectedMethods.contains(Self.rejectionKey(method, isProxy: isProxy)) {
            guard let offer = offers.first(where: { $0.scheme == method.httpScheme }) else { continue }
            let secure = origin.scheme?.lowercased() == "https"
            return AuthenticationChallenge(
                method: method, realm: Self.realm(in: offer.parameters), host: host.lowercased(),
                port: origin.port ?? (secure ? 443 : 80), protocol: secure ? "https" : "http", isProxy: isProxy,
                previousFailureCount: failures, failureResponse: head, request: request)
        }
        return nil
    }

    /// `rejectProtectionSpace`: the next challenge of the same response offers another method.
    mutating func reject(_ challenge: AuthenticationChallenge) {
        rejectedMethods.insert(Self.rejectionKey(challenge.method, isProxy: challenge.isProxy))
    }

    /// The credential the request goes again with; a failure if it comes back challenged.
    mutating func answer(_ challenge: AuthenticationChallenge, user: String, password: String) {
        if challenge.isProxy {
            proxyCredential = (user, password, challenge.method)
        } else {
            credential = (user, password, challenge.method, "\(challenge.protocol)://\(challenge.host):\(challenge.port)")
        }
        failures += 1
    }

    /// Whether Negotiate may answer with the service's own Kerberos credentials: once per host and port.
    mutating func triesNegotiate(for challenge: AuthenticationChallenge) -> Bool {
        defaultCredentialsTried.insert(["negotiate", challenge.host, "\(challenge.port)"]).inserted
    }

    /// The default handling's credential for `challenge`: the storage's default for its space, unless it
    /// was sent already (it failed); marked as sent.
    mutating func defaultCredential(
        for challenge: AuthenticationChallenge, in storage: (any TransferCredentials)?
    ) -> (user: String, password: String)? {
        guard let stored = storage?.defaultCredential(for: challenge.protectionSpace) else { return nil }
        let space = challenge.protectionSpace
        let key = [stored.user, stored.password, space.host, "\(space.port)", space.protocol, space.realm ?? ""]
        guard defaultCredentialsTried.insert(key).inserted else { return nil }
        return stored
    }

    /// The default handling's last resort: the `user:password` of the request's URL, once per method.
    /// Basic has already had it (libcurl sends a URL's credential with the first request); Digest and
    /// NTLM need the challenge first. Never for a proxy: the URL names the origin's user.
    mutating func urlCredential(for challenge: AuthenticationChallenge, url: String) -> (user: String, password: String)? {
        guard challenge.method != .basic, !challenge.isProxy, let url = URLComponents(string: url), let user = url.user,
            !user.isEmpty
        else { return nil }
        guard defaultCredentialsTried.insert(["url", challenge.method.rawValue, url.host ?? "", user]).inserted else { return nil }
        return (user, url.password ?? "")
    }

    /// Sets the credentials on the handle for a request to `url`: the origin's only when it is its
    /// protection space's, the proxy's when the request goes through the proxy.
    func apply(to easy: CurlEasyHandle, url: String, proxied: Bool) throws {
        if let credential, Self.origin(of: url) == credential.origin {
            if credential.method != .negotiate {  // Kerberos takes no password: the service's own tickets
                try easy.set(.username, credential.user)
                try easy.set(.password, credential.password)
            }
            try easy.setHTTPAuthentication(Self.curlScheme(credential.method))
        }
        if let proxyCredential, proxied {
            try easy.set(.proxyUsername, proxyCredential.user)
            try easy.set(.proxyPassword, proxyCredential.password)
            try easy.setProxyAuthentication(Self.curlScheme(proxyCredential.method))
        }
    }

    /// The offers of one `WWW-Authenticate` value: `Basic realm="a", Digest realm="b", nonce="c"` holds
    /// two. A new offer starts at a token followed by a space (parameters are `name=value`).
    static func offers(in value: String) -> [(scheme: String, parameters: String)] {
        var result: [(scheme: String, parameters: String)] = []
        for part in value.split(separator: ",", omittingEmptySubsequences: true) {
            let trimmed = part.drop { $0 == " " }
            let word = trimmed.prefix { $0 != " " && $0 != "=" }
            let startsOffer = trimmed.count == word.count || trimmed.dropFirst(word.count).first == " "
            if startsOffer && !word.isEmpty {
                result.append((word.lowercased(), String(trimmed.dropFirst(word.count))))
            } else if !result.isEmpty {
                result[result.count - 1].parameters += "," + part
            }
        }
        return result
    }

    /// `realm="..."` of a challenge, unquoted.
    static func realm(in offer: String) -> String? {
        guard let range = offer.range(of: "realm=", options: .caseInsensitive) else { return nil }
        let rest = offer[range.upperBound...]
        if rest.first == "\"" {
            return String(rest.dropFirst().prefix { $0 != "\"" })
        }
        return String(rest.prefix { $0 != "," && $0 != " " })
    }

    private static func rejectionKey(_ method: AuthenticationChallenge.Method, isProxy: Bool) -> String {
        (isProxy ? "proxy " : "") + method.rawValue
    }

    /// `scheme://host:port` of a URL, the unit a credential belongs to.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased()
        else { return nil }
        return "\(scheme)://\(host):\(components.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// libcurl's scheme for a credential answering `method`.
    private static func curlScheme(_ method: AuthenticationChallenge.Method) -> CurlAuthScheme {
        switch method {
        case .digest: .digest
        case .ntlm: .ntlm
        case .negotiate: .negotiate
        case .basic, .clientCertificate, .serverTrust: .basic
        }
    }
}
