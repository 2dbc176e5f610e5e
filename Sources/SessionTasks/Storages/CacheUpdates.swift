import Foundation
import HTTPCaching
import JSONCodec
import Logging
import TransferEngine
import TransferModels
import TransferStore

/// The URL cache around a task's end: what an ended attempt stores, merges or invalidates in its
/// session's cache — after `dataTask.willCacheResponse` when the delegate decides — and the background
/// revalidations of stale responses (the API of a session's cache: `SessionService+URLCache`).
final class CacheUpdates: Sendable {
    let urlCaches: URLCaches
    let questions: DelegateQuestions
    let completer: TaskCompleter
    let writer: ReportWriter
    let files: TaskFiles
    let logger: Logger

    init(
        urlCaches: URLCaches, questions: DelegateQuestions, completer: TaskCompleter, writer: ReportWriter, files: TaskFiles,
        logger: Logger
    ) {
        self.urlCaches = urlCaches
        self.questions = questions
        self.completer = completer
        self.writer = writer
        self.files = files
        self.logger = logger
    }

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
    func complete(_ outcome: TransferOutcome, of active: ActiveTask, producingResumeData: Bool) async {
        var active = active
        let progress = active.decidesCaching ? active.progressEvents(outcome.progress, now: .now, final: true) : []
        let completion = await completer.completion(of: outcome, from: active, producingResumeData: producingResumeData)
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
                    let answer = await questions.ask(
                        active.event { .willCacheResponse($0, proposedResponse: proposed) }, timeout: active.decisionTimeout)
                    (policy, userInfo) = questions.cacheDisposition(answer, proposed: policy)
                }
                try await urlCaches.keep(offer, policy: policy, userInfo: userInfo)
            }
        } catch {
            logger.error("Updating the URL cache failed", metadata: ["task.id": "\(task.id)", "error": "\(error)"])
        }
        writer.complete(completion)
    }
}
