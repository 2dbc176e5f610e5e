import Foundation
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A delegate that decides as it was told and writes down what it was asked, for the tests to read.
final class DecidingDelegate: RemoteURLSessionDelegate, @unchecked Sendable {
    enum Redirection: Sendable {
        case reject
        case follow
        /// Follow to this URL instead, with an `X-Decided` header.
        case replace(URL)
    }

    enum Challenge: Sendable {
        case useCredential(user: String, password: String)
        case cancel
    }

    enum Response: Sendable {
        case allow
        case cancel
        case becomeDownload
    }

    enum Delayed: Sendable {
        case continueLoading
        case cancel
        /// Begin with this URL instead.
        case replace(URL)
    }

    enum Caching: Sendable {
        case store
        case notAllowed
    }

    struct Question: Sendable {
        var method: String
        var url: URL?
        var statusCode: Int?
    }

    struct AskedChallenge: Sendable {
        var host: String
        var port: Int
        var realm: String?
        var authenticationMethod: String
        var previousFailureCount: Int
        var failureStatusCode: Int?
    }

    let decisions: RemoteURLSessionDecisions
    let redirection: Redirection
    let challenge: Challenge
    /// The answer of the session-level method (server trust here).
    let sessionChallenge: Challenge
    let response: Response
    let delayed: Delayed
    let caching: Caching

    /// `@unchecked Sendable`: every mutable field is behind this lock.
    private let lock = NSLock()
    private var _questions: [Question] = []
    private var _challenges: [AskedChallenge] = []
    private var _completions: [(task: String, error: (any Error)?)] = []

    init(
        decisions: RemoteURLSessionDecisions, redirection: Redirection = .follow,
        challenge: Challenge = .cancel, sessionChallenge: Challenge = .cancel, response: Response = .allow,
        delayed: Delayed = .continueLoading, caching: Caching = .store
    ) {
        self.decisions = decisions
        self.redirection = redirection
        self.challenge = challenge
        self.sessionChallenge = sessionChallenge
        self.response = response
        self.delayed = delayed
        self.caching = caching
    }

    var questions: [Question] { self.lock.withLock { self._questions } }
    var challenges: [AskedChallenge] { self.lock.withLock { self._challenges } }
    var completions: [(task: String, error: (any Error)?)] { self.lock.withLock { self._completions } }

    func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest
    ) async -> URLRequest? {
        self.lock.withLock {
            self._questions.append(Question(method: "willPerformHTTPRedirection", url: request.url, statusCode: response.statusCode))
        }
        switch self.redirection {
        case .reject:
            return nil
        case .follow:
            return request
        case .replace(let url):
            var modified = request
            modified.url = url
            modified.setValue("yes", forHTTPHeaderField: "X-Decided")
            return modified
        }
    }

    func urlSession(
        _ session: RemoteURLSession, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        self.lock.withLock { self._questions.append(Question(method: "sessionDidReceiveChallenge")) }
        self.record(challenge)
        return Self.answer(self.sessionChallenge)
    }

    func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        self.lock.withLock { self._questions.append(Question(method: "didReceiveChallenge")) }
        self.record(challenge)
        return Self.answer(self.challenge)
    }

    private func record(_ challenge: URLAuthenticationChallenge) {
        let space = challenge.protectionSpace
        let asked = AskedChallenge(
            host: space.host, port: space.port, realm: space.realm, authenticationMethod: space.authenticationMethod,
            previousFailureCount: challenge.previousFailureCount,
            failureStatusCode: (challenge.failureResponse as? HTTPURLResponse)?.statusCode)
        self.lock.withLock { self._challenges.append(asked) }
    }

    private static func answer(_ answer: Challenge) -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        switch answer {
        case .useCredential(let user, let password):
            return (.useCredential, URLCredential(user: user, password: password, persistence: .forSession))
        case .cancel:
            return (.cancelAuthenticationChallenge, nil)
        }
    }

    func urlSession(
        _ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, didReceive response: URLResponse
    ) async -> URLSession.ResponseDisposition {
        self.lock.withLock {
            self._questions.append(
                Question(method: "didReceiveResponse", url: response.url, statusCode: (response as? HTTPURLResponse)?.statusCode))
        }
        switch self.response {
        case .allow: return .allow
        case .cancel: return .cancel
        // By its raw value (2, as on Apple platforms): FoundationNetworking marks `.becomeDownload`
        // deprecated, since its own URLSession cannot do it; the service can.
        case .becomeDownload: return URLSession.ResponseDisposition(rawValue: 2) ?? .allow
        }
    }

    func urlSession(
        _ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, didBecome downloadTask: RemoteURLSessionDownloadTask
    ) async {
        self.lock.withLock { self._questions.append(Question(method: "didBecomeDownloadTask")) }
    }

    func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) async {
        // The file is removed when this returns: its size is read now.
        let size = (try? Data(contentsOf: location))?.count
        self.lock.withLock { self._questions.append(Question(method: "didFinishDownloadingTo", url: location, statusCode: size)) }
    }

    func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, willBeginDelayedRequest request: URLRequest
    ) async -> (URLSession.DelayedRequestDisposition, URLRequest?) {
        self.lock.withLock { self._questions.append(Question(method: "willBeginDelayedRequest", url: request.url)) }
        switch self.delayed {
        case .continueLoading:
            return (.continueLoading, nil)
        case .cancel:
            return (.cancel, nil)
        case .replace(let url):
            var replacement = request
            replacement.url = url
            return (.useNewRequest, replacement)
        }
    }

    func urlSession(
        _ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse
    ) async -> CachedURLResponse? {
        let status = (proposedResponse.response as? HTTPURLResponse)?.statusCode
        self.lock.withLock {
            self._questions.append(Question(method: "willCacheResponse", url: proposedResponse.response.url, statusCode: status))
        }
        switch self.caching {
        case .store: return proposedResponse
        case .notAllowed: return nil
        }
    }

    func urlSession(_ session: RemoteURLSession, task: RemoteURLSessionTask, didCompleteWithError error: (any Error)?) async {
        self.lock.withLock { self._completions.append((task.identifier, error)) }
    }
}
