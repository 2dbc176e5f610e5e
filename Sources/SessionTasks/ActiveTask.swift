import Foundation
import TransferEngine
import TransferModels
import TransferStore

/// A task whose transfer the engine runs: the row it started from, which attempt this is, what its
/// delegate events need, and how far its progress events have gone.
struct ActiveTask: Sendable {
    /// Out of line (as `configuration`): the engine's reports copy the attempt under the table's lock.
    @OutOfLine var record: TaskRecord
    /// The attempt (`TransferID.attempt`): reports of any other are not this one's.
    var number: Int
    var started: Date
    /// The partial file of this attempt (each start has its own, so a stopped attempt never touches the
    /// next one's).
    var partialPath: String?
    /// The session's `delegate.progressInterval`: at most one progress event per task per interval.
    var progressInterval: Duration
    /// The session's `delegate.progressStep`: a counter with a known total waits until it has moved this
    /// fraction of it (or reached it) before its next event.
    var progressStep: Double
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
    @OutOfLine var configuration: SessionConfiguration
    /// Totals already reported by progress events, and when the last one was made.
    var reportedSent: Int64 = 0
    var reportedReceived: Int64 = 0
    var lastProgressEvent: ContinuousClock.Instant?
    /// The attempt's pace, for `progress.throughput` and `estimatedTimeRemaining` (`TaskService+Rates`).
    var rate = TransferRate()
    /// What a streamed upload sends now (`PUT /v1/tasks/{id}/body` writes into it); a redirect that
    /// needs the body again replaces it.
    var uploadStream: UploadStream?
    /// The body of the response being received (data and upload tasks), which `/data` readers follow.
    var body: GrowingBody? {
        didSet { bodyReported = 0 }
    }
    /// Bytes of `body` that progress events counted.
    var bodyReported: Int64 = 0
    /// The last response head reported, with its snapshot (the completion and the metrics reuse it).
    var reportedResponse: ReportedResponse?
    /// `delegate.deliverData`: how many more body bytes `dataTask.didReceiveData` may carry (its
    /// `deliverDataMaxBytes`), nil once an event went without them (or never asked), so the bytes
    /// delivered are always a prefix of the body.
    var dataToDeliver: Int64?

    init(record: TaskRecord, session: SessionRecord, started: Date, partialPath: String?, number: Int) {
        self.record = record
        self.number = number
        self.started = started
        self.partialPath = partialPath
        let interval = session.delegate?.progressInterval ?? DelegateConfiguration.defaultProgressInterval
        self.progressInterval = .milliseconds(Int64((interval * 1000).rounded()))
        self.progressStep = session.delegate?.progressStep ?? DelegateConfiguration.defaultProgressStep
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
        if let delegate = session.delegate, delegate.deliverData, record.kind != .download {
            self.dataToDeliver = Int64(delegate.deliverDataMaxBytes)
        }
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

    /// The progress events due for `progress`: the first as soon as bytes move; later ones no sooner than
    /// `progressInterval` after the last and, for a counter with a known total, once it has moved
    /// `progressStep` of it; always when `final` (the last report before the completion carries the final
    /// totals).
    mutating func progressEvents(_ progress: TransferProgress, now: ContinuousClock.Instant, final: Bool = false) -> [PendingEvent] {
        if !final, let last = lastProgressEvent, now - last < progressInterval { return [] }
        let first = lastProgressEvent == nil
        func due(_ total: Int64, reported: Int64, expected: Int64) -> Bool {
            guard total > reported else { return false }
            if final || first || expected <= 0 || total >= expected { return true }
            return Double(total - reported) >= progressStep * Double(expected)
        }
        var events: [PendingEvent] = []
        if due(progress.bytesSent, reported: reportedSent, expected: progress.bytesExpectedToSend) {
            let sent = progress.bytesSent - reportedSent
            events.append(
                event {
                    .didSendBodyData(
                        $0, bytesSent: sent, totalBytesSent: progress.bytesSent,
                        totalBytesExpectedToSend: progress.bytesExpectedToSend)
                })
            reportedSent = progress.bytesSent
        }
        if due(progress.bytesReceived, reported: reportedReceived, expected: progress.bytesExpectedToReceive) {
            let delta = progress.bytesReceived - reportedReceived
            if record.kind == .download {
                events.append(
                    event {
                        .didWriteData(
                            $0, bytesWritten: delta, totalBytesWritten: progress.bytesReceived,
                            totalBytesExpectedToWrite: progress.bytesExpectedToReceive)
                    })
            } else if !isCompletionForm {
                var received = event {
                    .didReceiveData(
                        $0, length: delta, totalBytesReceived: progress.bytesReceived,
                        totalBytesExpectedToReceive: progress.bytesExpectedToReceive)
                }
                received.data = deliveredData(delta)
                events.append(received)
            }
            reportedReceived = progress.bytesReceived
        }
        if !events.isEmpty { lastProgressEvent = now }
        return events
    }

    /// Samples the pace of the counter the task's `fractionCompleted` measures: an upload's body sent,
    /// any other task's body received.
    mutating func sampleRate(_ progress: TransferProgress, at now: ContinuousClock.Instant) {
        if record.kind == .upload {
            rate.record(bytes: progress.bytesSent, expected: progress.bytesExpectedToSend, at: now)
        } else {
            rate.record(bytes: progress.bytesReceived, expected: progress.bytesExpectedToReceive, at: now)
        }
    }

    /// The next `count` bytes of the body for a `didReceiveData` event, when the delegate wants them and
    /// they fit what is left of its cap; read when the event is encoded, off the engine's loop thread.
    private mutating func deliveredData(_ count: Int64) -> BodyBytes? {
        defer { bodyReported += count }
        guard let left = dataToDeliver else { return nil }
        guard let body, count <= left, bodyReported + count <= body.status.length else {
            dataToDeliver = nil
            return nil
        }
        dataToDeliver = left - count
        return BodyBytes(body: body, offset: bodyReported, count: Int(count))
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
    /// The body bytes a `didReceiveData` event carries (`deliverData`), read when it is encoded.
    var data: BodyBytes?

    init(id: String? = nil, sessionId: String, taskId: String, event: DelegateEvent) {
        self.id = id
        self.sessionId = sessionId
        self.taskId = taskId
        self.event = event
    }

    func encoded() throws -> TaskEventAppend {
        let encoded = try withData().encoded()
        return TaskEventAppend(id: id, sessionId: sessionId, taskId: taskId, type: encoded.type, data: encoded.data)
    }

    /// The event with its body bytes in it. Bytes that cannot be read any more leave `data` null.
    func withData() -> DelegateEvent {
        guard let data, case .didReceiveData(let task, let length, let total, let expected, _) = event,
            let bytes = try? data.body.read(from: data.offset, upTo: data.count).bytes, bytes.count == data.count
        else { return event }
        return .didReceiveData(task, length: length, totalBytesReceived: total, totalBytesExpectedToReceive: expected, data: bytes)
    }
}

/// `count` bytes of a body from `offset`, to be read later: an event holds this, never the bytes, until
/// it is encoded.
struct BodyBytes: Sendable {
    var body: GrowingBody
    var offset: Int64
    var count: Int
}
