internal import Foundation

/// `URLSession`, with the transfers carried out by a running `urlsessiond`: the same calls, Foundation's
/// own types (`URLRequest`, `HTTPURLResponse`, `URLError` with the service's code and userInfo), and a
/// delegate called in this process.
///
/// ```swift
/// let connection = RemoteConnection(url: URL(string: "http://127.0.0.1:8080")!, token: "…")
/// let session = RemoteURLSession(configuration: .default(connection), delegate: progressReporter)
/// let (file, response) = try await session.download(from: URL(string: "https://example.com/big.iso")!)
/// ```
///
/// The service's session is made on first use (the service cannot be reached from `init`). Its events are
/// followed with one `text/event-stream` request (`GET /v1/sessions/{id}/events`), reconnecting with
/// `Last-Event-ID`, so the client needs no public URL; delegate methods are called from them, one at a time.
///
/// Transport: libcurl, on two threads of the process (`HTTPTransport`; FoundationNetworking's URLSession
/// spins a core while any call waits for its answer, and the event stream always waits). It adds no
/// package to build (async-http-client would add swift-nio's build to every fresh clone); `: keep-alive`
/// every 15 s keeps the stream's idle timeout away, and a dropped stream reconnects.
public final class RemoteURLSession: Sendable {
    /// `URLSession.shared`: the tenant's shared session on the service named by `URLSESSIOND_URL` and
    /// `URLSESSIOND_TOKEN`. It has no delegate and cannot be invalidated.
    public static let shared = RemoteURLSession(shared: .environment())

    /// The configuration the session was made with (a copy, as URLSession keeps).
    public let configuration: RemoteURLSessionConfiguration
    public let delegate: (any RemoteURLSessionDelegate)?
    let core: SessionCore

    /// `URLSession(configuration:delegate:delegateQueue:)`. The delegate is called in order, one call at a
    /// time, from the session's own loop.
    public init(configuration: RemoteURLSessionConfiguration, delegate: (any RemoteURLSessionDelegate)? = nil) {
        self.configuration = configuration
        self.delegate = delegate
        self.core = SessionCore(configuration: configuration, delegate: delegate, isShared: false)
        self.core.owner.withLock { $0.value = self }
    }

    /// The shared session of the tenant of `connection` (``shared`` uses the environment's).
    public convenience init(sharedSessionOf connection: RemoteConnection) {
        self.init(shared: connection)
    }

    private init(shared connection: RemoteConnection) {
        self.configuration = .default(connection)
        self.delegate = nil
        self.core = SessionCore(configuration: self.configuration, delegate: nil, isShared: true)
        self.core.owner.withLock { $0.value = self }
    }

    /// The service's limit for an inline upload body; larger ones go through a blob.
    static let inlineUploadLimit = 1 << 20

    deinit {
        // The service's session lives on (a background one by design); only this client stops following it.
        self.core.cancelFollowing()
    }

    /// The service's id of the session (`ses_…`), making the session if it was not yet.
    public func sessionIdentifier() async throws -> String {
        try await self.core.sessionID()
    }
}
