import Foundation
import HTTPCaching
import TransferEngine
import TransferModels

/// Background revalidations of stale responses served within their `stale-while-revalidate` window (RFC
/// 5861 §3): jobs of no task, by their own transfer ids, each with the cache it refreshes. One at a time
/// per cached URL: a burst of requests for one stale response makes one revalidation.
final class CacheRevalidations: Sendable {
    /// Transfer ids of revalidations start with it; a task's never do (`tsk_`).
    static let idPrefix = "rvl_"

    /// Each running revalidation's cache, and the `placement key + URL` it refreshes, by transfer id.
    private let running = LockedBox<[String: (placement: URLCaches.Placement, url: String)]>([:])

    static func isRevalidation(_ id: TransferID) -> Bool { id.taskId.hasPrefix(idPrefix) }

    /// The job that revalidates what `job` was served: `job`'s request (its cookies, credentials, proxy, path
    /// and trust) with the validators, or as a plain load without any; no delegate decides anything, and its
    /// body goes to `partialPath`. nil when one is already running for that URL in that cache.
    func job(
        revalidating job: TransferJob, conditions: HTTPFields, storedHead: ResponseHead, placement: URLCaches.Placement,
        partialPath: (String) -> String
    ) -> TransferJob? {
        let id = TransferID(taskId: Self.idPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 36), attempt: 1)
        let url = placement.key + "\u{0}" + job.request.url
        let claimed = running.withLock { running -> Bool in
            guard !running.values.contains(where: { $0.url == url }) else { return false }
            running[id.taskId] = (placement, url)
            return true
        }
        guard claimed else { return nil }
        var background = job
        background.id = id
        background.kind = .data
        background.segments = nil
        background.downloadPath = partialPath(id.taskId)
        (background.decidesRedirects, background.decidesResponse) = (false, false)
        (background.decidesChallenges, background.decidesSessionChallenges) = (false, false)
        // A 304 is all it waits for: the stored body is not read again (the cache keeps its own).
        background.storedResponse =
            conditions.isEmpty
            ? nil
            : StoredTransferResponse(
                use: .validate(conditionalFields: conditions), head: storedHead, body: .bytes([]))
        return background
    }

    /// The cache a finished revalidation refreshes; it is no longer running.
    func finished(_ id: TransferID) -> URLCaches.Placement? {
        running.withLock { $0.removeValue(forKey: id.taskId)?.placement }
    }
}
