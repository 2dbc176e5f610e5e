import Foundation
import HTTPCaching
import Logging
import TransferEngine

// `stale-while-revalidate` (RFC 5861 §3), as URLSession does it: the task gets the stale response at once,
// and the cache asks the origin in the background; its 304 refreshes the stored response, a new 200 replaces
// it. Nothing of it reaches the task or its delegate.
extension CacheUpdates {
    /// The job that revalidates what `job` is served, for the engine to start (nil when one runs for that
    /// URL already).
    func backgroundRevalidation(of job: TransferJob, _ stale: JobFactory.StaleRevalidation) -> TransferJob? {
        guard
            let background = urlCaches.revalidations.job(
                revalidating: job, conditions: stale.conditions, storedHead: stale.storedHead, placement: stale.placement,
                partialPath: files.newPartialPath(of:))
        else { return nil }
        logger.debug("Revalidating a stale cached response in the background", metadata: ["transfer.id": "\(background.id)"])
        return background
    }

    /// A background revalidation ended (settled beside the tasks' ends, in `settleEndedAttempts`): the
    /// cache is updated off it.
    func finishRevalidation(_ id: TransferID, _ outcome: TransferOutcome) async {
        guard let placement = urlCaches.revalidations.finished(id) else { return }
        defer {
            if case .file(let path, _) = outcome.body { unlink(path) }
        }
        do {
            try await urlCaches.revalidated(outcome, placement: placement)
            var (bytes, file): ([UInt8]?, String?) = (nil, nil)
            switch outcome.body {
            case .bytes(let body): bytes = body
            case .file(let path, _): file = path
            case .none: bytes = []
            }
            if let offer = URLCaches.offer(outcome, placement: placement, bodyBytes: bytes, bodyFile: file) {
                try await urlCaches.keep(offer, policy: offer.proposedPolicy, userInfo: nil)
            }
        } catch {
            logger.error("A background revalidation could not update the cache", metadata: ["error": "\(error)"])
        }
    }
}
