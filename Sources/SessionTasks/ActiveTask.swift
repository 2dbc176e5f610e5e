import Foundation
import TransferEngine
import TransferModels
import TransferStore

/// A task whose transfer the engine runs: the row it started from, which attempt this is, what its
/// delegate events need, and how far its progress events have gone.
struct ActiveTask: Sendable {
    var record: TaskRecord
    /// The attempt (`TransferID.attempt`): reports of any other are not this one's.
    var number: Int
    var started: Date
    /// The partial file of this attempt (each start has its own, so a stopped attempt never touches the
    /// next one's).
    var partialPath: String?
    /// The session's `delegate.progressInterval`: at most one progress event per task per interval.
    var progressInterval: Duration
    /// Background sessions follow redirects without asking, as URLSession's do.
    var reportsRedirects: Bool
    /// The delegate decides redirects / the response (listed in `delegate.decisions`), within `decisionTimeout`.
    var decidesRedirects: Bool
    var decidesResponse: Bool
    /// Which of the delegate's challenge methods are listed in `delegate.decisions`.
    var listsSessionChallenges: Bool
    var listsTaskChallenges: Bool
    var decidesChallenges: Bool { listsSessionChallenges || listsTaskChallenges }
    /// The delegate decides how a data task's response is cached (`dataTask.willCacheResponse`); download
    /// tasks are cached without asking, as in URLSession.
    var decidesCaching: Bool
    var decisionTimeout: Duration
    /// The session's configuration, for a request the delegate substitutes.
    var configuration: SessionConfiguration
    /// Totals already reported by progress events, and when the last one was made.
    var reportedSent: Int64 = 0
    var reportedReceived: Int64 = 0
    var lastProgressEvent: ContinuousClock.Instant?
    /// The body of the response being received (data and upload tasks), which `/data` readers follow.
    var body: GrowingBody?

    init(record: TaskRecord, session: SessionRecord, started: Date, partialPath: String?, number: Int) {
        self.record = record
        self.number = number
        self.started = started
        self.partialPath = partialPath
        self.progressInterval = .milliseconds(Int64(((session.delegate?.progressInterval ?? 0.5) * 1000).rounded()))
        self.reportsRedirects = session.kind != .background
        let decisions = session.delegate?.decisions ?? []
        self.decidesRedirects = reportsRedirects && decisions.contains(.taskWillPerformHTTPRedirection)
        self.decidesResponse =
            record.kind != .download && record.completion == nil
            && decisions.contains(.dataTaskDidReceiveResponse)
        self.decidesCaching =
            record.kind == .data && record.completion == nil && decisions.contains(.dataTaskWillCacheResponse)
        self.listsSessionChallenges = decisions.contains(.sessionDidReceiveChallenge)
        self.listsTaskChallenges = decisions.contains(.taskDidReceiveChallenge)
        self.decisionTimeout = .milliseconds(Int64(((session.delegate?.decisionTimeout ?? 10) * 1000).rounded()))
        self.configuration = session.configuration
    }

    /// The delegate method a challenge goes to, as URLSession routes it: a session-wide one (server trust,
    /// client certificate, NTLM, Negotiate) to the session's method first, else the task's; the others
    /// (Basic, Digest, proxies) only to the task's. nil: default handling.
    func challengeMethod(for method: AuthenticationChallenge.Method) -> TaskEventType? {
        if method.isSessionLevel && listsSessionChallenges { return .sessionDidReceiveChallenge }
        return listsTaskChallenges ? .taskDidReceiveChallenge : nil
    }

    var summary: TaskSummary {
        TaskSummary(
            id: record.id, taskIdentifier: record.taskIdentifier, kind: record.kind, state: .running,
            taskDescription: record.taskDescription)
    }

    /// The completion-handler form: the delegate's response and data events are not sent.
    var isCompletionForm: Bool { record.completion != nil }

    /// The progress events due for `progress`: none within `progressInterval` of the last ones, unless
    /// `final` (the last report before the completion always carries the final totals).
    mutating func progressEvents(_ progress: TransferProgress, now: ContinuousClock.Instant, final: Bool = false) -> [PendingEvent] {
        if !final, let last = lastProgressEvent, now - last < progressInterval { return [] }
        var events: [PendingEvent] = []
        if progress.bytesSent > reportedSent {
            let sent = progress.bytesSent - reportedSent
            events.append(
                event {
                    .didSendBodyData(
                        $0, bytesSent: sent, totalBytesSent: progress.bytesSent,
                        totalBytesExpectedToSend: progress.bytesExpectedToSend)
                })
            reportedSent = progress.bytesSent
        }
        if progress.bytesReceived > reportedReceived {
            let delta = progress.bytesReceived - reportedReceived
            if record.kind == .download {
                events.append(
                    event {
                        .didWriteData(
                            $0, bytesWritten: delta, totalBytesWritten: progress.bytesReceived,
                            totalBytesExpectedToWrite: progress.bytesExpectedToReceive)
                    })
            } else if !isCompletionForm {
                events.append(
                    event {
                        .didReceiveData(
                            $0, length: delta, totalBytesReceived: progress.bytesReceived,
                            totalBytesExpectedToReceive: progress.bytesExpectedToReceive)
                    })
            }
            reportedReceived = progress.bytesReceived
        }
        if !events.isEmpty { lastProgressEvent = now }
        return events
    }

    /// One of this task's delegate events, made from its summary.
    func event(id: String? = nil, _ make: (TaskSummary) -> DelegateEvent) -> PendingEvent {
        PendingEvent(id: id, sessionId: record.sessionId, taskId: record.id, event: make(summary))
    }
}

/// A delegate event of a running task, encoded by the writer rather than on the engine's loop thread.
struct PendingEvent: Sendable {
    /// Set for a decision event: the id its answer is awaited by.
    var id: String?
    var sessionId: String
    var taskId: String
    var event: DelegateEvent

    func encoded() throws -> TaskEventAppend {
        let encoded = try event.encoded()
        return TaskEventAppend(id: id, sessionId: sessionId, taskId: taskId, type: encoded.type, data: encoded.data)
    }
}
