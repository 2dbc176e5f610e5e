import Foundation
import TransferEngine
import TransferModels
import TransferStore

// The engine's reports, on its loop thread: short work under the table's lock, then the writer's queue
// (that order), no I/O. A report of an attempt that is no longer the task's (stopped by `suspend()`)
// changes nothing.
extension TaskRunner {
    /// The final response, and a data or upload task's body with it: readers of `/data` waiting for the body
    /// (`TaskConnections.waitForBody`) are woken once both are recorded.
    public func transfer(_ transfer: TransferID, didReceive response: ResponseHead, for request: OutgoingRequest, body: GrowingBody?) {
        let reported = ReportedResponse(response, url: request.url)
        let snapshot = reported.snapshot
        let current = table.withLock { state -> Bool in
            guard var task = state.entries[transfer.taskId]?.attempt, task.number == transfer.attempt else { return false }
            task.reportedResponse = reported
            if let body { task.body = body }
            state.entries[transfer.taskId]?.attempt = task
            writer.queue { pending in
                pending.record(ResponseReport(response: snapshot), for: transfer.taskId)
                // A delegate that decides gets the decision event instead (`asksAbout`).
                if task.record.kind == .data || task.record.kind == .upload, !task.isCompletionForm, !task.decidesResponse {
                    pending.events.append(task.event { .didReceiveResponse($0, response: snapshot) })
                }
            }
            return true
        }
        if current, body != nil { waiters.bodies.completed(transfer.taskId) }
    }

    /// `task.didReceiveInformationalResponse` (103 Early Hints and the like); the task's response stays.
    public func transfer(_ transfer: TransferID, didReceiveInformational response: ResponseHead, for request: OutgoingRequest) {
        let snapshot = HTTPResponseSnapshot(url: request.url, statusCode: response.statusCode, headerLines: response.fields)
        table.withLock { state in
            guard let task = state.entries[transfer.taskId]?.attempt, task.number == transfer.attempt else { return }
            writer.queue { $0.events.append(task.event { .didReceiveInformationalResponse($0, response: snapshot) }) }
        }
    }

    /// `currentRequest` follows the redirect; `response` shows the 3xx until the next one.
    public func transfer(_ transfer: TransferID, willRedirect response: ResponseHead, to request: OutgoingRequest) {
        let id = transfer.taskId
        table.withLock { state in
            guard let task = state.entries[id]?.attempt, task.number == transfer.attempt,
                let base = task.record.originalRequest
            else { return }
            writer.queue { pending in
                let current = pending.responses[id]?.currentRequest?.url ?? base.url
                let head = HTTPResponseSnapshot(url: current, statusCode: response.statusCode, headerLines: response.fields)
                let next = RequestSnapshots.snapshot(of: request, basedOn: base)
                pending.record(ResponseReport(response: head, currentRequest: next), for: id)
                // A redirect the delegate decided was reported by its decision event.
                if task.reportsRedirects && !task.decidesRedirects {
                    pending.events.append(task.event { .willPerformHTTPRedirection($0, response: head, request: next) })
                }
            }
        }
    }

    /// Counters and the rate always; progress events at most once per `progressInterval`.
    public func transfer(_ transfer: TransferID, didProgress progress: TransferProgress) {
        record(progress, of: transfer, final: false)
    }

    /// The counters, the rate and the progress events due (all of them with `final`).
    private func record(_ progress: TransferProgress, of transfer: TransferID, final: Bool) {
        let counts = Self.counts(progress)
        let now = ContinuousClock.now
        table.withLock { state in
            guard state.entries[transfer.taskId]?.attempt?.number == transfer.attempt else { return }
            // Sampled in place: a copy taken first would make the rate's samples be copied on every report.
            state.entries[transfer.taskId]?.attempt?.sampleRate(progress, at: now)
            guard var task = state.entries[transfer.taskId]?.attempt else { return }
            let events = task.progressEvents(progress, now: now, final: final)
            if !events.isEmpty { state.entries[transfer.taskId]?.attempt = task }
            writer.queue { pending in
                pending.progress[transfer.taskId] = counts
                pending.events += events
            }
        }
    }

    /// An open WebSocket or stream connection's counts: the task's row and rate follow them, with no event
    /// (a webSocket or stream task has no `didSendBodyData` or `didReceiveData`).
    public func transfer(_ transfer: TransferID, didCount progress: TransferProgress) {
        let counts = Self.counts(progress)
        let now = ContinuousClock.now
        table.withLock { state in
            guard state.entries[transfer.taskId]?.attempt?.number == transfer.attempt else { return }
            state.entries[transfer.taskId]?.attempt?.sampleRate(progress, at: now)
            writer.queue { pending in pending.progress[transfer.taskId] = counts }
        }
    }

    /// A `multipart/x-mixed-replace` part ended: its last bytes are reported now (whatever the
    /// `progressInterval`), so they come before the next part's response.
    public func transfer(_ transfer: TransferID, didReceiveAllOfPart progress: TransferProgress) {
        record(progress, of: transfer, final: true)
    }

    /// `downloadTask.didResumeAtOffset`; progress events count on from the offset.
    public func transfer(_ transfer: TransferID, didResumeAtOffset offset: Int64, expectedTotalBytes: Int64) {
        table.withLock { state in
            guard var task = state.entries[transfer.taskId]?.attempt, task.number == transfer.attempt else { return }
            task.reportedReceived = offset
            state.entries[transfer.taskId]?.attempt = task
            let event = task.event { .didResumeAtOffset($0, fileOffset: offset, expectedTotalBytes: expectedTotalBytes) }
            writer.queue { $0.events.append(event) }
        }
    }

    static func counts(_ progress: TransferProgress) -> TaskByteCounts {
        TaskByteCounts(
            sent: progress.bytesSent, expectedToSend: progress.bytesExpectedToSend, received: progress.bytesReceived,
            expectedToReceive: progress.bytesExpectedToReceive)
    }

    // MARK: The delegate's decisions (`DelegateQuestions` asks; the engine is told here)

    public func transfer(_ transfer: TransferID, asksToRedirect response: ResponseHead, to request: OutgoingRequest) {
        questions.redirect(transfer, response: response, to: request) { [self] in
            engine.resolveRedirect(transfer, withNewBodyStream($0, for: transfer))
        }
    }

    public func transfer(_ transfer: TransferID, asksAbout response: ResponseHead, for request: OutgoingRequest) {
        questions.response(transfer, response, for: request) { [engine] in engine!.resolveResponse(transfer, $0) }
    }

    public func transfer(_ transfer: TransferID, asksAbout challenge: AuthenticationChallenge) {
        questions.challenge(transfer, challenge) { [engine] in engine!.resolveChallenge(transfer, $0) }
    }
}
