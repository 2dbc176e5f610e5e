import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

/// What URLSession asks its delegate object mid-task — follow this redirect? take this response? answer
/// this challenge? begin this delayed request? cache this response? — asked as decision events, with
/// the delegate's answers turned into the engine's dispositions.
///
/// It knows no engine: each question's answer goes to the closure the caller gives, so the task runner
/// alone resolves the transfer. Answers are awaited off the engine's loop thread, so one waiting task
/// never holds up another.
final class DelegateQuestions: Sendable {
    let writer: ReportWriter
    let decisions: any DelegateDecisions
    let table: TaskTable
    let store: TransferStore
    let files: TaskFiles
    let credentials: CredentialStorages
    /// Schemes a substituted request may use: http and https, plus what the operator enabled.
    let allowedSchemes: Set<String>
    let logger: Logger

    init(
        writer: ReportWriter, decisions: any DelegateDecisions, table: TaskTable, store: TransferStore, files: TaskFiles,
        credentials: CredentialStorages, allowedSchemes: Set<String>, logger: Logger
    ) {
        self.writer = writer
        self.decisions = decisions
        self.table = table
        self.store = store
        self.files = files
        self.credentials = credentials
        self.allowedSchemes = allowedSchemes
        self.logger = logger
    }

    /// Appends a decision event, waits for the delegate's answer and hands it to `resolve`. The waiter is
    /// registered before the event is appended, so no answer (a webhook's, or one given through the API)
    /// can come before it.
    func ask(_ event: PendingEvent, timeout: Duration, resolve: @escaping @Sendable (DelegateAnswer?) async -> Void) {
        let eventId = event.id ?? ResourceID.make(prefix: "evt")
        var event = event
        event.id = eventId
        let expected = decisions.expectAnswer(toEvent: eventId, session: event.sessionId)
        writer.append([event])
        Task { await resolve(await expected.answer(within: timeout)) }
    }

    /// Appends a decision event and waits for its answer (nil: none).
    func ask(_ event: PendingEvent, timeout: Duration) async -> DelegateAnswer? {
        await withCheckedContinuation { continuation in
            ask(event, timeout: timeout) { answer in continuation.resume(returning: answer) }
        }
    }

    // MARK: task.willPerformHTTPRedirection

    /// Asked only when the task's delegate decides redirects; otherwise the redirect is followed at once.
    func redirect(
        _ transfer: TransferID, response: ResponseHead, to request: OutgoingRequest,
        resolve: @escaping @Sendable (RedirectDisposition) -> Void
    ) {
        guard let task = table.attempt(transfer), let base = task.record.originalRequest, task.decidesRedirects else {
            return resolve(.follow(request))
        }
        let current = writer.queue { $0.responses[transfer.taskId]?.currentRequest?.url } ?? base.url
        let head = HTTPResponseSnapshot(url: current, statusCode: response.statusCode, headerLines: response.fields)
        let proposed = RequestSnapshots.snapshot(of: request, basedOn: base)
        ask(task.event { .willPerformHTTPRedirection($0, response: head, request: proposed) }, timeout: task.decisionTimeout) {
            [self] answer in
            resolve(redirectDisposition(answer, proposed: request, task: task))
        }
    }

    // MARK: dataTask.didReceiveResponse

    func response(
        _ transfer: TransferID, _ response: ResponseHead, for request: OutgoingRequest,
        resolve: @escaping @Sendable (ResponseDisposition) -> Void
    ) {
        guard let task = table.attempt(transfer) else { return resolve(.allow) }
        let snapshot = HTTPResponseSnapshot(url: request.url, statusCode: response.statusCode, headerLines: response.fields)
        ask(task.event { .didReceiveResponse($0, response: snapshot) }, timeout: task.decisionTimeout) { [self] answer in
            resolve(await responseDisposition(answer, task: task))
        }
    }
}
