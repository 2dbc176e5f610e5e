internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

extension WireChallenge {
    /// The `URLAuthenticationChallenge` URLSession would hand its delegate for this challenge.
    var authenticationChallenge: URLAuthenticationChallenge {
        let space = self.protectionSpace
        let protectionSpace: URLProtectionSpace
        if space.isProxy == true {
            let type = space.protocol == "https" ? NSURLProtectionSpaceHTTPSProxy : NSURLProtectionSpaceHTTPProxy
            protectionSpace = URLProtectionSpace(
                proxyHost: space.host, port: space.port, type: type, realm: space.realm,
                authenticationMethod: space.authenticationMethod)
        } else {
            protectionSpace = URLProtectionSpace(
                host: space.host, port: space.port, protocol: space.protocol, realm: space.realm,
                authenticationMethod: space.authenticationMethod)
        }
        // The service never shows the stored secret: the proposal has the user alone. Answering with it
        // means "the stored one" (see `ChallengeAnswer`), as URLSession's proposal is the stored credential.
        let proposed = self.proposedCredential.map { credential in
            URLCredential(
                user: credential.user ?? "", password: "",
                persistence: credential.persistence == "permanent" ? .permanent : .forSession)
        }
        return URLAuthenticationChallenge(
            protectionSpace: protectionSpace, proposedCredential: proposed,
            previousFailureCount: self.previousFailureCount ?? 0, failureResponse: self.failureResponse?.httpURLResponse,
            error: nil, sender: ChallengeSender())
    }
}

/// The challenge's `sender`, which URLAuthenticationChallenge needs on Linux. Its methods do nothing: the
/// delegate answers with its return value, as with URLSession's completion-handler methods, whose
/// challenges' senders are not used either.
private final class ChallengeSender: NSObject, URLAuthenticationChallengeSender {
    func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
    func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
    func cancel(_ challenge: URLAuthenticationChallenge) {}
    func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
    func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
}

/// A challenge method's return value as the service's `ChallengeDecision`.
enum ChallengeAnswer {
    static func object(
        _ disposition: URLSession.AuthChallengeDisposition, _ credential: URLCredential?,
        for challenge: URLAuthenticationChallenge
    ) -> [String: Any] {
        switch disposition {
        case .useCredential:
            guard let credential else {
                // URLSession goes on without a credential: the 401 (407) is the response, as when the
                // space is rejected and no other method is offered.
                return ["disposition": "rejectProtectionSpace"]
            }
            if credential === challenge.proposedCredential { return ["disposition": "performDefaultHandling"] }
            if challenge.protectionSpace.authenticationMethod == Self.serverTrustMethod {
                return ["disposition": "useCredential", "credential": ["serverTrust": true]]
            }
            guard let user = credential.user, let password = credential.password else {
                return ["disposition": "performDefaultHandling"]
            }
            let object: [String: Any] = ["user": user, "password": password, "persistence": Self.name(of: credential.persistence)]
            return ["disposition": "useCredential", "credential": object]
        case .cancelAuthenticationChallenge:
            return ["disposition": "cancelAuthenticationChallenge"]
        case .rejectProtectionSpace:
            return ["disposition": "rejectProtectionSpace"]
        default:
            return ["disposition": "performDefaultHandling"]
        }
    }

    /// `NSURLAuthenticationMethodServerTrust`'s value, which FoundationNetworking marks unavailable (it has
    /// no `SecTrust`); the service names the method so.
    static let serverTrustMethod = "NSURLAuthenticationMethodServerTrust"

    /// The service's `CredentialPersistence` name.
    static func name(of persistence: URLCredential.Persistence) -> String {
        switch persistence {
        case .forSession: "forSession"
        case .permanent: "permanent"
        case .synchronizable: "synchronizable"
        default: "none"
        }
    }
}
