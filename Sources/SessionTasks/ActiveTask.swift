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
    /// Which delegate method answers HTTP challenges: the task's, else the session's (as URLSession
    /// falls back to it); nil: neither is implemented.
    var challengeMethod: TaskEventType?
    var decidesChallenges: Bool { challengeMethod != nil }
    var decisionTimeout: Duration
    /// The session's configuration, for a request the delegate substitutes.
    var configuration: SessionConfiguration
    /// Totals already reported by progress events, and when the last one was made.
    var reportedSent: Int64 = 0
    var reportedReceived: Int64 = 0
    var lastProgressEvent: ContinuousClock.Instant?

    init(record: TaskRecord, session: SessionRecord, started: Date, partialPath: String?, number: Int) {
        self.record = record
        self.number = number
        self.started = started
        self.partialPath = partialPath
        self.progressInterval = .milliseconds(Int64(((session.delegate?.progressInterval ?? 0.5) * 1000).rounded()))
        self.reportsRedirects = session.kind != .background
        let decisions = session.delegate?.decisions ?? []
        self.decidesRedirects = reportsRedirects && decisions.contains(.taskWillPerformHTTPRedirection)
        self.decidesResponse = record.kind != .download && record.completion == nil
            && decisions.contains(.dataTaskDidReceiveResponse)
        self.challengeMethod = decisions.contains(.taskDidReceiveChallenge)
            ? .taskDidReceiveChallenge : decisions.contains(.sessionDidReceiveChallenge) ? .sessionDidReceiveChallenge : nil
        self.decisionTimeout = .milliseconds(Int64(((session.delegate?.decisionTimeout ?? 10) * 1000).rounded()))
        self.configuration = session.configuration
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
            events.append(event(.sent(
                progress.bytesSent - reportedSent, progress.bytesSent, progress.bytesExpectedToSend)))
            reportedSent = progress.bytesSent
        }
        if progress.bytesReceived > reportedReceived {
            let delta = progress.bytesReceived - reportedReceived
            if record.kind == .download {
                events.append(event(.wrote(delta, progress.bytesReceived, progress.bytesExpectedToReceive)))
            } else if !isCompletionForm {
                events.append(event(.received(delta, progress.bytesReceived, progress.bytesExpectedToReceive)))
            }
            reportedReceived = progress.bytesReceived
        }
        if !events.isEmpty { lastProgressEvent = now }
        return events
    }

    func event(_ payload: PendingEvent.Payload, id: String? = nil) -> PendingEvent {
        PendingEvent(id: id, sessionId: record.sessionId, summary: summary, payload: payload)
    }
}

/// A delegate event of a running task, encoded by the writer rather than on the engine's loop thread.
struct PendingEvent: Sendable {
    enum Payload: Sendable {
        case response(HTTPResponseSnapshot)
        case redirect(HTTPResponseSnapshot, URLRequestSnapshot)
        /// (since the last event, total, expected total)
        case wrote(Int64, Int64, Int64)
        case sent(Int64, Int64, Int64)
        case received(Int64, Int64, Int64)
        /// `didFinishDownloadingTo`'s location.
        case finished(String)
        /// `didBecomeDownloadTask`: the same task, now a download.
        case becameDownload(TaskSummary)
        case challenge(ChallengeEventData, TaskEventType)
        /// `didResumeAtOffset`: (fileOffset, expectedTotalBytes)
        case resumed(Int64, Int64)
        /// `willBeginDelayedRequest`: the request about to be sent.
        case delayed(URLRequestSnapshot)
    }

    /// Set for a decision event: the id its answer is awaited by.
    var id: String?
    var sessionId: String
    var summary: TaskSummary
    var payload: Payload

    var type: TaskEventType {
        switch payload {
        case .response: .dataTaskDidReceiveResponse
        case .redirect: .taskWillPerformHTTPRedirection
        case .wrote: .downloadTaskDidWriteData
        case .sent: .taskDidSendBodyData
        case .received: .dataTaskDidReceiveData
        case .finished: .downloadTaskDidFinishDownloadingTo
        case .becameDownload: .dataTaskDidBecomeDownloadTask
        case .challenge(_, let method): method
        case .resumed: .downloadTaskDidResumeAtOffset
        case .delayed: .taskWillBeginDelayedRequest
        }
    }

    func encodedData() throws -> String {
        let bytes: [UInt8]
        switch payload {
        case .response(let response):
            bytes = try WireJSON.encode(ResponseEventData(task: summary, response: response))
        case .redirect(let response, let request):
            bytes = try WireJSON.encode(RedirectEventData(task: summary, response: response, request: request))
        case .wrote(let delta, let total, let expected):
            bytes = try WireJSON.encode(WriteDataEventData(
                task: summary, bytesWritten: delta, totalBytesWritten: total, totalBytesExpectedToWrite: expected))
        case .sent(let delta, let total, let expected):
            bytes = try WireJSON.encode(SendBodyDataEventData(
                task: summary, bytesSent: delta, totalBytesSent: total, totalBytesExpectedToSend: expected))
        case .received(let delta, let total, let expected):
            bytes = try WireJSON.encode(ReceiveDataEventData(
                task: summary, length: delta, totalBytesReceived: total, totalBytesExpectedToReceive: expected))
        case .finished(let location):
            bytes = try WireJSON.encode(FinishDownloadingEventData(task: summary, location: location))
        case .becameDownload(let download):
            bytes = try WireJSON.encode(BecomeDownloadEventData(task: summary, downloadTask: download))
        case .challenge(let challenge, _):
            bytes = try WireJSON.encode(challenge)
        case .resumed(let offset, let expected):
            bytes = try WireJSON.encode(ResumeEventData(task: summary, fileOffset: offset, expectedTotalBytes: expected))
        case .delayed(let request):
            bytes = try WireJSON.encode(DelayedRequestEventData(task: summary, request: request))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func encoded() throws -> TaskEventAppend {
        TaskEventAppend(id: id, sessionId: sessionId, taskId: summary.id, type: type, data: try encodedData())
    }
}

extension TaskRecord {
    /// A download's `location` once `completion` is recorded: `/v1/tasks/{id}/file` when it kept a file.
    func locationPath(with completion: TaskCompletion) -> String? {
        kind == .download && (completion.filePath != nil || completion.body != nil) ? "/v1/tasks/\(id)/file" : nil
    }
}
