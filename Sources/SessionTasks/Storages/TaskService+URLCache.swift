public import Foundation
import HTTPCaching
import JSONCodec
import Logging
import TransferEngine
public import TransferModels
public import TransferStore

// The URL cache around a task's end, and `URLCache` of a session for the API.
extension TaskService {
    /// Whether an ended attempt gives the session's cache something to do: a GET that loaded a response
    /// (to store, or a 304 to merge), or any other method that may invalidate stored ones.
    func concernsCache(_ outcome: TransferOutcome, of active: ActiveTask) -> Bool {
        guard active.configuration.urlCache != nil, let response = outcome.response
        else { return false }
        let method = outcome.currentRequest.method.uppercased()
        if method == "GET" {
            // A URL with a password is never a cache key: the cache's rows would hold it in clear.
            let hasPassword = [outcome.currentRequest.url, active.record.originalRequest?.url ?? ""].contains { Redaction.url($0) != $0 }
            return outcome.error == nil && outcome.transactions.last?.isFromLocalCache == false && !hasPassword
        }
        return HTTPCacheRules.invalidates(method: method, statusCode: response.statusCode)
    }

    /// Completes an attempt whose response concerns the cache: the body is kept, the cache updated —
    /// after `dataTask.willCacheResponse` when the delegate decides (its final progress event first, as
    /// URLSession calls the method once the data is in) — and the completion written.
    func completeUpdatingCache(_ outcome: TransferOutcome, of active: ActiveTask, producingResumeData: Bool) async {
        var active = active
        let progress = active.decidesCaching ? active.progressEvents(outcome.progress, now: .now, final: true) : []
        let completion = await completion(of: outcome, from: active, producingResumeData: producingResumeData)
        writer.append(progress)
        let task = active.record
        guard let placement = urlCaches.placement(tenant: task.tenant, sessionId: task.sessionId, configuration: active.configuration)
        else { return writer.complete(completion) }
        do {
            try await urlCaches.invalidate(after: outcome, placement: placement)
            try await urlCaches.revalidated(outcome, placement: placement)
            if completion.error == nil,
                let offer = URLCaches.offer(
                    outcome, placement: placement, bodyBytes: completion.body, bodyFile: completion.filePath ?? completion.localCopy)
            {
                var policy = offer.proposedPolicy
                var userInfo: JSONValue?
                if active.decidesCaching, let response = completion.response {
                    let proposed = CachedResponseObject(
                        response: response, storagePolicy: policy, userInfo: nil, storedAt: nil, dataLength: offer.entry.bodyLength,
                        data: offer.entry.bodyLength <= CachedResponseObject.inlineDataLimit ? completion.body : nil)
                    let answer = await askDelegate(
                        active.event { .willCacheResponse($0, proposedResponse: proposed) }, timeout: active.decisionTimeout)
                    (policy, userInfo) = cacheDisposition(answer, proposed: policy)
                }
                try await urlCaches.keep(offer, policy: policy, userInfo: userInfo)
            }
        } catch {
            logger.error("Updating the URL cache failed", metadata: ["task.id": "\(task.id)", "error": "\(error)"])
        }
        writer.complete(completion)
    }

    /// `allowed`, `allowedInMemoryOnly` or `notAllowed`, with an optional `userInfo` (the modified
    /// `CachedURLResponse`); anything else stores the proposal, as URLSession does without the method.
    /// `allowed` where the response fits no disk stays in memory.
    func cacheDisposition(_ answer: DelegateAnswer?, proposed: URLCacheStoragePolicy) -> (URLCacheStoragePolicy, JSONValue?) {
        guard let answer = answer?.allowing([.userInfo]), let policy = URLCacheStoragePolicy(rawValue: answer.disposition) else {
            return (proposed, nil)
        }
        return (policy == .allowed ? proposed : policy, answer.userInfo)
    }

    // MARK: The API

    /// The session's cache: its scope, capacities and usage (`storage: none`, all zero, without one).
    public func cacheUsage(of session: SessionRecord) async throws -> URLCacheUsage {
        guard let placement = urlCaches.placement(of: session) else {
            return URLCacheUsage(
                storage: .none, memoryCapacity: 0, diskCapacity: 0, currentMemoryUsage: 0, currentDiskUsage: 0, entryCount: 0)
        }
        let usage = try await urlCaches.storage(placement).usage
        return URLCacheUsage(
            storage: placement.sessionId == nil ? .shared : .private, memoryCapacity: placement.memoryCapacity,
            diskCapacity: placement.diskCapacity, currentMemoryUsage: Int(usage.memory), currentDiskUsage: Int(usage.disk),
            entryCount: usage.count)
    }

    /// `cachedResponse(for:)`: what is stored for a GET of `url`, whatever its freshness; nil when nothing is.
    public func cachedResponse(of session: SessionRecord, for url: String) async throws -> CachedResponseObject? {
        guard let placement = urlCaches.placement(of: session), let key = HTTPCacheRules.cacheKey(of: url) else { return nil }
        let storage = try await urlCaches.storage(placement)
        guard let entry = storage.peek(key) else { return nil }
        var data: [UInt8]?
        if entry.bodyLength <= CachedResponseObject.inlineDataLimit {
            data = try await urlCaches.storedBytes(of: entry, in: storage)
        }
        return CachedResponseObject(
            response: HTTPResponseSnapshot(url: entry.responseURL, statusCode: entry.statusCode, headerLines: entry.fields),
            storagePolicy: entry.storagePolicy, userInfo: entry.userInfo, storedAt: entry.storedAt, dataLength: entry.bodyLength,
            data: data)
    }

    /// `removeCachedResponse(for:)`; false when nothing was stored for `url`.
    public func removeCachedResponse(of session: SessionRecord, for url: String) async throws -> Bool {
        guard let placement = urlCaches.placement(of: session), let key = HTTPCacheRules.cacheKey(of: url) else { return false }
        let storage = try await urlCaches.storage(placement)
        guard storage.peek(key) != nil else { return false }
        urlCaches.unlinkFiles(storage.remove(key), in: storage)
        return true
    }

    /// `removeCachedResponses(since:)`, or `removeAllCachedResponses()` without `since`.
    public func removeCachedResponses(of session: SessionRecord, since: Date?) async throws {
        guard let placement = urlCaches.placement(of: session) else { return }
        let storage = try await urlCaches.storage(placement)
        urlCaches.unlinkFiles(storage.removeAll(since: since), in: storage)
    }
}
