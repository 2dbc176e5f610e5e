import Foundation
import TransferEngine
import TransferModels

/// Sessions' trust bundles (`<data>/trust/session-<id>.pem`): the service's (or the system's) authorities
/// and the session's `serverTrust.anchors`, written once per run (a configuration never changes) and
/// removed with the session's row.
public final class TrustBundles: Sendable {
    let directory: URL
    /// The authorities every bundle starts from (`URLSESSIOND_CA_FILE`, else the system's).
    let authorities: String?
    /// Sessions whose bundle is written.
    private let written = LockedBox<Set<String>>([])

    init(directory: URL, authorities: String?) {
        self.directory = directory
        self.authorities = authorities
    }

    /// The session's bundle, written first when this run has not written it yet.
    func path(ofSession sessionId: String, anchors: [String]) throws -> String {
        let path = path(of: sessionId)
        guard !written.withLock({ $0.contains(sessionId) }) else { return path }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try TrustBundle.write(extras: anchors, over: authorities, to: path)
        written.withLock { _ = $0.insert(sessionId) }
        return path
    }

    /// A pruned session's bundle goes.
    func forget(session sessionId: String) {
        written.withLock { _ = $0.remove(sessionId) }
        unlink(path(of: sessionId))
    }

    private func path(of sessionId: String) -> String {
        directory.appendingPathComponent("session-\(sessionId).pem").path
    }
}
