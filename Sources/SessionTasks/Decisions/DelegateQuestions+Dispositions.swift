import Foundation
import HTTPCaching
import JSONCodec
import Logging
import TransferEngine
import TransferModels
import TransferStore

/// The delegate's answers as dispositions: what each accepts, and what anything else (or none) means —
/// what URLSession does when the delegate does not implement the method.
extension DelegateQuestions {
    /// `{"disposition": "follow"}` (the proposed request), `{"disposition": "follow", "request": {...}}`
    /// (the delegate's own), `{"disposition": "reject"}`; anything else follows, as URLSession does without
    /// the method.
    func redirectDisposition(_ answer: DelegateAnswer?, proposed: OutgoingRequest, task: ActiveTask) -> RedirectDisposition {
        guard let answer = answer?.allowing([.request]) else { return .follow(proposed) }
        switch answer.disposition {
        case "reject":
            return .reject
        case "follow":
            guard let input = answer.request else { return .follow(proposed) }
            do {
                // A redirect stays on http and https, as CURLOPT_REDIR_PROTOCOLS_STR does: never to file: or ftp:.
                let snapshot = try input.validated(kind: .data, session: task.configuration, allowedSchemes: URLRequestInput.webSchemes)
                return .follow(
                    OutgoingRequest(
                        url: snapshot.url, method: snapshot.httpMethod,
                        headers: JobFactory.mergedHeaders(
                            request: snapshot.allHTTPHeaderFields, session: task.configuration.httpAdditionalHeaders),
                        body: snapshot.httpBody.map { .bytes(Array($0)) } ?? .none))
            } catch {
                logger.warning(
                    "A redirect decision's request is invalid; following the proposed one",
                    metadata: ["task.id": "\(task.record.id)", "error": "\(error)"])
                return .follow(proposed)
            }
        default:
            return .follow(proposed)
        }
    }

    /// `allow` | `cancel` | `becomeDownload` (data tasks; the body then goes to a file, and
    /// `dataTask.didBecomeDownloadTask` comes first); anything else allows, as URLSession does without
    /// the method.
    func responseDisposition(_ answer: DelegateAnswer?, task: ActiveTask) async -> ResponseDisposition {
        guard let answer = answer?.allowing([]) else { return .allow }
        switch answer.disposition {
        case "cancel":
            return .cancel
        case "becomeDownload" where task.record.kind == .data:
            let id = task.record.id
            do {
                try await store.tasks.becomeDownload(taskId: id)
            } catch {
                logger.error("Making a data task a download failed", metadata: ["task.id": "\(id)", "error": "\(error)"])
                return .allow
            }
            let path = files.newPartialPath(of: id)
            let became = table.withLock { state -> PendingEvent? in
                guard var current = state.entries[id]?.attempt, current.number == task.number else { return nil }
                let before = current.summary
                current.record.kind = .download
                current.partialPath = path
                state.entries[id]?.attempt = current
                return PendingEvent(
                    sessionId: current.record.sessionId, taskId: id,
                    event: .didBecomeDownloadTask(before, downloadTask: current.summary))
            }
            guard let became else { return .allow }
            writer.append([became])
            return .becomeDownload(path: path)
        default:
            return .allow
        }
    }

    // MARK: task.willBeginDelayedRequest

    enum DelayedDisposition {
        case continueLoading, cancel
        case useNewRequest(URLRequestSnapshot)
    }

    /// `{"disposition": "continueLoading" | "cancel"}` or `{"disposition": "useNewRequest", "request": {...}}`;
    /// anything else (or an invalid request) continues.
    func delayedDisposition(_ answer: DelegateAnswer?, task: ActiveTask) -> DelayedDisposition {
        guard let answer = answer?.allowing([.request]) else { return .continueLoading }
        switch answer.disposition {
        case "cancel":
            return .cancel
        case "useNewRequest":
            guard let input = answer.request,
                let snapshot = try? input.validated(kind: task.record.kind, session: task.configuration, allowedSchemes: allowedSchemes)
            else { return .continueLoading }
            return .useNewRequest(snapshot)
        default:
            return .continueLoading
        }
    }

    // MARK: dataTask.willCacheResponse

    /// `allowed`, `allowedInMemoryOnly` or `notAllowed`, with an optional `userInfo` (the modified
    /// `CachedURLResponse`); anything else stores the proposal, as URLSession does without the method.
    /// `allowed` where the response fits no disk stays in memory.
    func cacheDisposition(_ answer: DelegateAnswer?, proposed: URLCacheStoragePolicy) -> (URLCacheStoragePolicy, JSONValue?) {
        guard let answer = answer?.allowing([.userInfo]), let policy = URLCacheStoragePolicy(rawValue: answer.disposition) else {
            return (proposed, nil)
        }
        return (policy == .allowed ? proposed : policy, answer.userInfo)
    }
}
