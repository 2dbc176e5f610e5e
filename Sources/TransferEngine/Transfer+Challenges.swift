import Curl
import Foundation
import TransferModels

// HTTP authentication challenges (401 and 407) and what the delegate's answer, or the default handling,
// does with them. The TLS ones (server trust, client certificates) are in Transfer+TLS.swift.

/// What answering a challenge comes to.
enum ChallengeAnswer {
    /// The same request goes again, on the same handle (with a credential, or past a TLS decision).
    case sendAgain
    /// Another challenge to answer (the next method offered after a rejected one).
    case nextChallenge(AuthenticationChallenge)
    case done(TransferOutcome)
}

extension Transfer {
    /// The challenge of a 401, or of a proxy's 407: of the methods the response offers and the delegate
    /// did not reject, the strongest (Negotiate, NTLM, Digest, Basic), as CFNetwork picks.
    func challenge(in head: ResponseHead) -> AuthenticationChallenge? {
        let isProxy = head.statusCode == 407
        guard head.statusCode == 401 || (isProxy && job.proxy != nil),
            let origin = URLComponents(string: isProxy ? job.proxy! : request.url), let host = origin.host
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
                previousFailureCount: challengeFailures, failureResponse: head, request: request)
        }
        return nil
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

    /// The delegate's answer: the request goes again (with a credential, or past a TLS decision), another
    /// challenge, or the end.
    func resolve(_ challenge: AuthenticationChallenge, _ disposition: ChallengeDisposition) -> ChallengeAnswer {
        switch disposition {
        case .cancelAuthenticationChallenge:
            return .done(outcome(failure: TransferFailure(code: URLErrorCode.cancelled.rawValue, curlCode: 42, message: "cancelled")))
        case .performDefaultHandling:
            return resolveByDefault(challenge)
        case .rejectProtectionSpace:
            guard challenge.failureResponse != nil else { return resolveByDefault(challenge) }  // TLS: nothing else to offer
            rejectedMethods.insert(Self.rejectionKey(challenge.method, isProxy: challenge.isProxy))
            if let next = self.challenge(in: head) { return .nextChallenge(next) }
            return acceptChallengeResponse()
        case .useCredential(let credential):
            switch (challenge.method, credential) {
            case (.serverTrust, .serverTrust):
                return acceptServerTrust(challenge)
            case (.clientCertificate, .identity(let identity)):
                return present(identity, for: challenge)
            case (.serverTrust, _), (.clientCertificate, _), (_, .serverTrust), (_, .identity):
                return resolveByDefault(challenge)  // a credential of another kind answers nothing here
            case (_, .password(let user, let password)):
                return send(user: user, password: password, for: challenge)
            }
        }
    }

    /// URLSession's default handling: the stored default credential for the space (once), else the 401.
    /// Negotiate answers with the service's own Kerberos credentials, once.
    func resolveByDefault(_ challenge: AuthenticationChallenge) -> ChallengeAnswer {
        switch challenge.method {
        case .serverTrust: return trustByDefault(challenge)
        case .clientCertificate: return presentByDefault(challenge)
        case .negotiate:
            guard defaultCredentialsTried.insert(["negotiate", challenge.host, "\(challenge.port)"]).inserted else {
                return acceptChallengeResponse()
            }
            return send(user: "", password: "", for: challenge)
        case .basic, .digest, .ntlm:
            guard let credential = defaultCredential(for: challenge) ?? urlCredential(for: challenge) else {
                return acceptChallengeResponse()
            }
            return send(user: credential.user, password: credential.password, for: challenge)
        }
    }

    /// The request goes again with a credential (the 401's body is dropped).
    private func send(user: String, password: String, for challenge: AuthenticationChallenge) -> ChallengeAnswer {
        if challenge.isProxy {
            proxyCredential = (user, password, challenge.method)
        } else {
            credential = (user, password, challenge.method, "\(challenge.protocol)://\(challenge.host):\(challenge.port)")
        }
        challengeFailures += 1
        return .sendAgain
    }

    static func rejectionKey(_ method: AuthenticationChallenge.Method, isProxy: Bool) -> String {
        (isProxy ? "proxy " : "") + method.rawValue
    }

    /// The default handling's credential for `challenge`: the storage's default for its space, unless it
    /// was sent already (it failed); marked as sent.
    func defaultCredential(for challenge: AuthenticationChallenge) -> (user: String, password: String)? {
        guard let stored = job.credentials?.defaultCredential(for: challenge.protectionSpace) else { return nil }
        let space = challenge.protectionSpace
        let key = [stored.user, stored.password, space.host, "\(space.port)", space.protocol, space.realm ?? ""]
        guard defaultCredentialsTried.insert(key).inserted else { return nil }
        return stored
    }

    /// The default handling's last resort: the `user:password` of the request's URL, once per method.
    /// Basic has already had it (libcurl sends a URL's credential with the first request); Digest and
    /// NTLM need the challenge first. Never for a proxy: the URL names the origin's user.
    func urlCredential(for challenge: AuthenticationChallenge) -> (user: String, password: String)? {
        guard challenge.method != .basic, !challenge.isProxy, let url = URLComponents(string: request.url),
            let user = url.user, !user.isEmpty
        else { return nil }
        guard defaultCredentialsTried.insert(["url", challenge.method.rawValue, url.host ?? "", user]).inserted else { return nil }
        return (user, url.password ?? "")
    }

    /// The delegate gave no credential: the 401 is the task's response, with its body.
    func acceptChallengeResponse() -> ChallengeAnswer {
        deliver(head)
        return .done(finishBody())
    }

    /// libcurl's scheme for a credential answering `method`.
    static func curlScheme(_ method: AuthenticationChallenge.Method) -> CurlAuthScheme {
        switch method {
        case .digest: .digest
        case .ntlm: .ntlm
        case .negotiate: .negotiate
        case .basic, .clientCertificate, .serverTrust: .basic
        }
    }
}
