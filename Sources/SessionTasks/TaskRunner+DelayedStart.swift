import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

extension TaskRunner {
    /// `earliestBeginDate`: nothing is sent before it. Then, when the delegate implements it,
    /// `task.willBeginDelayedRequest` decides: `continueLoading`, `cancel`, or `useNewRequest` with the
    /// request to send instead; no answer continues, as URLSession does without the method.
    func begin(_ id: String, at date: Date, continuing: Bool) async {
        try? await Task.sleep(for: .milliseconds(Int64(max(0, date.timeIntervalSinceNow) * 1000)))
        guard scheduled.withLock({ $0.remove(id) }) != nil, !stopping.withLock({ $0 }) else { return }
        do {
            guard var task = try await store.task(id: id), task.state == .running,
                let session = try await store.session(id: task.sessionId, tenant: task.tenant)
            else { return }
            task.earliestBeginDate = nil  // this attempt has waited
            if session.delegate?.decisions.contains(.taskWillBeginDelayedRequest) == true,
                let request = task.currentRequest ?? task.originalRequest
            {
                let probe = ActiveTask(record: task, session: session, started: Date(), partialPath: nil)
                let answer = await askDelegate(probe.event(.delayed(request)), timeout: probe.decisionTimeout)
                switch delayedDisposition(answer, task: probe) {
                case .continueLoading:
                    break
                case .cancel:
                    _ = try await complete(id, error: .cancelled(failingURL: request.url))
                    return
                case .useNewRequest(let replacement):
                    try await store.replaceCurrentRequest(id: id, with: replacement)
                    task.currentRequest = replacement
                }
            }
            try await launch(task, session: session, continuing: continuing)
        } catch let failure as TransferError {
            _ = try? await complete(id, error: failure)
        } catch {
            logger.error("Starting a delayed task failed", metadata: ["task.id": "\(id)", "error": "\(String(reflecting: error))"])
        }
    }

    enum DelayedDisposition {
        case continueLoading, cancel
        case useNewRequest(URLRequestSnapshot)
    }

    /// `{"disposition": "continueLoading" | "cancel"}` or `{"disposition": "useNewRequest", "request": {...}}`;
    /// anything else (or an invalid request) continues.
    func delayedDisposition(_ answer: [UInt8]?, task: ActiveTask) -> DelayedDisposition {
        struct Answer: Decodable {
            var disposition: String
            var request: URLRequestInput?
        }
        guard let answer, let decoded = try? StrictJSONDecoder().decode(Answer.self, from: answer) else { return .continueLoading }
        switch decoded.disposition {
        case "cancel":
            return .cancel
        case "useNewRequest":
            guard let input = decoded.request,
                let snapshot = try? input.validated(kind: task.record.kind, session: task.configuration, allowedSchemes: allowedSchemes)
            else { return .continueLoading }
            return .useNewRequest(snapshot)
        default:
            return .continueLoading
        }
    }

    /// Appends a decision event and waits for its answer (nil: none).
    func askDelegate(_ event: PendingEvent, timeout: Duration) async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            decide(event, timeout: timeout) { answer in continuation.resume(returning: answer) }
        }
    }
}
