import Foundation
import TestSupport
import Testing
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate's decisions, as URLSession's delegate makes them: a redirect rejected, followed or
/// changed; a challenge answered or cancelled; a response allowed or cancelled. Each is answered in the
/// client process, well within the service's 10 s wait (the defaults it would apply otherwise are what
/// some of these decisions also do, so the tests check the delegate was asked and the answer came quickly).
@Suite("URLSessionRemote: delegate decisions")
struct DecisionTests {
    @Test(.timeLimit(.minutes(1)))
    func aRejectedRedirectMakesTheRedirectResponseTheTasksResponse() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.redirection], redirection: .reject)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            // The body is not checked: URLSession gives the 3xx's, the service keeps none (see the docs' gaps).
            let (_, response) = try await session.data(from: .fixture(origin.url("/redirect/302?to=/bytes/10")))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 302)
            #expect(http.url?.path == "/redirect/302")
            #expect(delegate.questions.map(\.method) == ["willPerformHTTPRedirection"])
            #expect(delegate.questions.first?.statusCode == 302)
            #expect(delegate.questions.first?.url?.path == "/bytes/10")
            #expect(origin.requests(path: "/bytes/10").isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFollowedRedirectEndsWithTheFinalResponse() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.redirection], redirection: .follow)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let start = ContinuousClock.now
            let (data, response) = try await session.data(from: .fixture(origin.url("/redirect-chain/2")))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.url?.path == "/redirect-chain/0")
            #expect(String(decoding: data, as: UTF8.self).contains("2"))
            #expect(delegate.questions.map(\.method) == ["willPerformHTTPRedirection", "willPerformHTTPRedirection"])
            // Answered, not waited out (the service's default would follow too, after 10 s each).
            #expect(ContinuousClock.now - start < .seconds(8))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aModifiedRedirectRequestIsTheOneTheOriginReceives() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let replacement = try URL.fixture(origin.url("/echo?decided=1"))
            let delegate = DecidingDelegate(decisions: [.redirection], redirection: .replace(replacement))
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let (_, response) = try await session.data(from: .fixture(origin.url("/redirect/302?to=/bytes/10")))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.url?.path == "/echo")
            let received = try #require(origin.requests(path: "/echo").first)
            #expect(received.query == "decided=1")
            #expect(received.header("X-Decided") == "yes")
            #expect(origin.requests(path: "/bytes/10").isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aBasicChallengeAnsweredWithACredentialSucceeds() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.taskChallenge], challenge: .useCredential(user: "alice", password: "s3cret"))
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let (data, response) = try await session.data(from: .fixture(origin.url("/basic-auth/alice/s3cret")))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self).contains("\"authenticated\":true"))
            let asked = try #require(delegate.challenges.first)
            #expect(delegate.challenges.count == 1)
            #expect(asked.host == "127.0.0.1")
            #expect(asked.authenticationMethod == NSURLAuthenticationMethodHTTPBasic)
            #expect(asked.realm == "fixture")
            #expect(asked.previousFailureCount == 0)
            #expect(asked.failureStatusCode == 401)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aCancelledChallengeCancelsTheTask() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.taskChallenge], challenge: .cancel)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let error = await #expect(throws: URLError.self) {
                _ = try await session.data(from: .fixture(origin.url("/basic-auth/alice/s3cret")))
            }
            #expect(error?.code == .cancelled)
            #expect(delegate.challenges.count == 1)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aResponseDispositionOfCancelCancelsTheTask() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.response], response: .cancel)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.dataTask(with: URLRequest(url: .fixture(origin.url("/bytes/100000"))))
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect((delegate.completions.first?.error as? URLError)?.code == .cancelled)
            #expect((task.error as? URLError)?.code == .cancelled)
            #expect(delegate.questions.map(\.method) == ["didReceiveResponse"])
            #expect(task.countOfBytesReceived < 100_000)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aResponseDispositionOfAllowReceivesTheBody() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.response], response: .allow)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let start = ContinuousClock.now
            let task = try await session.dataTask(with: URLRequest(url: .fixture(origin.url("/bytes/1000"))))
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.completions.first?.error == nil)
            #expect((task.response as? HTTPURLResponse)?.statusCode == 200)
            #expect(task.countOfBytesReceived == 1000)
            #expect(delegate.questions.map(\.method) == ["didReceiveResponse"])
            #expect(ContinuousClock.now - start < .seconds(8))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDelegateThatListsNoDecisionsIsNeverAsked() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            // It would reject, cancel and cancel: none of it applies, URLSession's handling does.
            let delegate = DecidingDelegate(decisions: [], redirection: .reject, challenge: .cancel, response: .cancel)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let (_, redirected) = try await session.data(from: .fixture(origin.url("/redirect/302?to=/bytes/10")))
            #expect((redirected as? HTTPURLResponse)?.statusCode == 200)
            let (_, challenged) = try await session.data(from: .fixture(origin.url("/basic-auth/alice/s3cret")))
            #expect((challenged as? HTTPURLResponse)?.statusCode == 401)
            let task = try await session.dataTask(with: URLRequest(url: .fixture(origin.url("/bytes/1000"))))
            try await task.resume()
            // The two calls above completed tasks too: wait for this one's completion.
            try await eventually(timeout: 30) { delegate.completions.contains { $0.task == task.identifier } }
            #expect(delegate.completions.last?.error == nil)
            #expect(task.countOfBytesReceived == 1000)
            // The response is still heard (a notification); its disposition is not asked for.
            #expect(delegate.questions.map(\.method) == ["didReceiveResponse"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskDelegateAnswersItsTasksDecisionsInsteadOfTheSessions() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let sessionDelegate = DecidingDelegate(decisions: [.redirection], redirection: .reject)
            let taskDelegate = DecidingDelegate(decisions: [], redirection: .follow)
            let session = RemoteURLSession(configuration: .default(connection), delegate: sessionDelegate)
            let (_, response) = try await session.data(
                from: .fixture(origin.url("/redirect/302?to=/bytes/10")), delegate: taskDelegate)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(taskDelegate.questions.map(\.method) == ["willPerformHTTPRedirection"])
            #expect(sessionDelegate.questions.isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDelayedRequestReplacedByTheDelegateIsTheOneSent() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let replacement = try URL.fixture(origin.url("/echo?delayed=1"))
            let delegate = DecidingDelegate(decisions: [.delayedRequest], delayed: .replace(replacement))
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.dataTask(
                with: URLRequest(url: .fixture(origin.url("/bytes/10"))), options: .init(earliestBeginDate: Date() + 0.5))
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.completions.first?.error == nil)
            #expect(delegate.questions.map(\.method).first == "willBeginDelayedRequest")
            #expect(delegate.questions.first?.url?.path == "/bytes/10")
            #expect(origin.requests(path: "/echo").first?.query == "delayed=1")
            #expect(origin.requests(path: "/bytes/10").isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDelayedRequestCancelledByTheDelegateCancelsTheTask() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.delayedRequest], delayed: .cancel)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.dataTask(
                with: URLRequest(url: .fixture(origin.url("/bytes/10"))), options: .init(earliestBeginDate: Date() + 0.5))
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect((delegate.completions.first?.error as? URLError)?.code == .cancelled)
            #expect(origin.requests(path: "/bytes/10").isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aResponseTheDelegateLetsBeCachedIsServedFromTheCache() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.caching], caching: .store)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let url = try URL.fixture(origin.url("/cache/600"))
            let task = try await session.dataTask(with: URLRequest(url: url))
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.questions.map(\.method) == ["didReceiveResponse", "willCacheResponse"])
            #expect(delegate.questions.last?.statusCode == 200)
            var cachedOnly = URLRequest(url: url)
            cachedOnly.cachePolicy = .returnCacheDataDontLoad
            let (_, response) = try await session.data(for: cachedOnly)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(origin.requests(path: "/cache/600").count == 1)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aResponseTheDelegateDoesNotLetBeCachedIsNotStored() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.caching], caching: .notAllowed)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let url = try URL.fixture(origin.url("/cache/600"))
            let task = try await session.dataTask(with: URLRequest(url: url))
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.questions.map(\.method) == ["didReceiveResponse", "willCacheResponse"])
            var cachedOnly = URLRequest(url: url)
            cachedOnly.cachePolicy = .returnCacheDataDontLoad
            await #expect(throws: URLError.self) { _ = try await session.data(for: cachedOnly) }
            #expect(origin.requests(path: "/cache/600").count == 1)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aResponseDispositionOfBecomeDownloadMakesTheTaskADownload() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.response], response: .becomeDownload)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.dataTask(with: URLRequest(url: .fixture(origin.url("/bytes/5000"))))
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.completions.first?.error == nil)
            let methods = delegate.questions.map(\.method)
            #expect(methods == ["didReceiveResponse", "didBecomeDownloadTask", "didFinishDownloadingTo"])
            // The file's size (this delegate writes it down in `statusCode`).
            #expect(delegate.questions.last?.statusCode == 5000)
            #expect(task.state == .completed)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anUntrustedChainAcceptedByTheSessionsChallengeMethodLoads() async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["a": Array("trusted by the delegate".utf8)])
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            // Any credential accepts a server-trust challenge (`URLCredential(trust:)` has no SecTrust here).
            let delegate = DecidingDelegate(
                decisions: [.sessionChallenge], sessionChallenge: .useCredential(user: "", password: ""))
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let (data, response) = try await session.data(from: .fixture(origin.url("/a")))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "trusted by the delegate")
            #expect(delegate.questions.map(\.method) == ["sessionDidReceiveChallenge"])
            let asked = try #require(delegate.challenges.first)
            #expect(asked.authenticationMethod == "NSURLAuthenticationMethodServerTrust")
            #expect(asked.port == origin.port)
            #expect(asked.failureStatusCode == nil)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aServerTrustChallengeCancelledBySessionsMethodCancelsTheTask() async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["a": Array("never read".utf8)])
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = DecidingDelegate(decisions: [.sessionChallenge], sessionChallenge: .cancel)
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let error = await #expect(throws: URLError.self) { _ = try await session.data(from: .fixture(origin.url("/a"))) }
            #expect(error?.code == .cancelled)
            #expect(delegate.questions.map(\.method) == ["sessionDidReceiveChallenge"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aModifiedRedirectOfAPostKeepsItsBody() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let replacement = try URL.fixture(origin.url("/echo?decided=1"))
            let delegate = DecidingDelegate(decisions: [.redirection], redirection: .replace(replacement))
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            var request = try URLRequest(url: .fixture(origin.url("/redirect/307?to=/bytes/10")))
            request.httpMethod = "POST"
            request.httpBody = Data("the body, twice".utf8)
            let (_, response) = try await session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            // 307 keeps the method and the body; the delegate's request carries them on.
            let received = try #require(origin.requests(path: "/echo").first)
            #expect(received.method == "POST")
            #expect(received.bodySize == 15)
            #expect(received.header("X-Decided") == "yes")
        }
    }
}
