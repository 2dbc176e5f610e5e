import Crypto
import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

/// Turns an ended transfer into its completion: the error, metrics and response, the body kept (in the
/// store when small, else as a file, put into the object store when there is one), the digest checked,
/// resume data for a download that can be continued, and the delegate events that end the task.
/// A kept file is on disk (fsynced, with its directory) before the completion is returned, so before the
/// completion is recorded.
final class TaskCompleter: Sendable {
    let store: TransferStore
    /// Its `keptBodyLimit` and `fileTimeToLive`.
    let configuration: TaskService.Configuration
    let locations: any TaskBodyLocations
    let files: TaskFiles
    let channels: ConnectionChannels
    let logger: Logger

    init(
        store: TransferStore, configuration: TaskService.Configuration, locations: any TaskBodyLocations, files: TaskFiles,
        channels: ConnectionChannels, logger: Logger
    ) {
        self.store = store
        self.configuration = configuration
        self.locations = locations
        self.files = files
        self.channels = channels
        self.logger = logger
    }

    /// A transfer ended: keep its body (in the store when small, else as a file), check the digest, and
    /// describe the completion with its metrics and the delegate calls that end the task. A kept file is
    /// on disk (fsynced, with its directory) before this returns, so before the completion is recorded.
    func completion(of outcome: TransferOutcome, from active: ActiveTask, producingResumeData: Bool) async -> TaskCompletion {
        var active = active
        let task = active.record
        let url = outcome.currentRequest.url
        var completion = TaskCompletion(
            id: task.id, error: outcome.error.map { Self.transferError($0, url: url, task: task) },
            metrics: TaskMetricsBuilder.metrics(outcome, task: task, started: active.started, reported: active.reportedResponse),
            counts: TaskRunner.counts(outcome.progress))
        if let head = outcome.response {
            completion.response = ReportedResponse.snapshot(of: head, at: url, reported: active.reportedResponse)
        }
        if completion.error == nil { await keepBody(of: outcome, for: task, in: &completion) }
        if task.kind == .download, completion.error != nil, let path = active.partialPath {
            if completion.error?.code == URLErrorCode.dataLengthExceedsMaximum.rawValue {
                TaskFiles.removePartialFile(path)  // past URLSESSIOND_MAX_DOWNLOAD_SIZE: nothing to continue, no bytes kept
            } else {
                keepResumeData(in: &completion, of: active, path: path, outcome: outcome, wanted: producingResumeData)
            }
        }

        let closeEvent = webSocketCompletion(outcome, of: active, into: &completion)
        if task.kind == .stream { channels.streams.ended(task.id) }
        // A connection's bytes are not a body's: no progress events (as URLSession's webSocket and stream tasks).
        let isConnection = task.kind == .webSocket || task.kind == .stream
        var events = isConnection ? [] : active.progressEvents(outcome.progress, now: .now, final: true)
        if let closeEvent { events.append(closeEvent) }
        if completion.error == nil, !active.isCompletionForm, let location = location(of: task, with: completion) {
            events.append(active.event { .didFinishDownloading($0, location: location) })
        }
        do {
            completion.precedingEvents = try events.map { try $0.withData().encoded() }
            if active.isCompletionForm {
                completion.followingEvents = [try completionHandlerEvent(completion, of: active).encoded()]
            }
        } catch {
            logger.error("Encoding a task's last events failed", metadata: ["task.id": "\(task.id)", "error": "\(error)"])
        }
        logCompleted(task, completion, started: active.started)
        return completion
    }

    /// A failed download that can be continued carries its resume data (a plain `cancel()` does not, as in
    /// URLSession); its partial file stays until the task's files expire. Otherwise the file goes.
    private func keepResumeData(
        in completion: inout TaskCompletion, of active: ActiveTask, path: String, outcome: TransferOutcome, wanted: Bool
    ) {
        let cancelled = completion.error?.code == URLErrorCode.cancelled.rawValue
        // A download that could not write (a full disk) gives its space back at once: kept for resume
        // data, the partial file would keep the disk full, and the store could not record the failure.
        let couldNotWrite = completion.error?.code == URLErrorCode.cannotWriteToFile.rawValue
        guard !cancelled || wanted, !couldNotWrite, let base = active.record.originalRequest ?? store.resumedRequest(of: active.record)
        else {
            TaskFiles.removePartialFile(path)
            return
        }
        let request = RequestSnapshots.snapshot(of: outcome.currentRequest, basedOn: base)
        guard let token = resumeData(of: active.record, partialPath: path, response: completion.response, request: request) else { return }
        completion.error?.userInfo[TaskService.resumeDataKey] = token
        completion.partialPath = path
    }

    /// The completion handler's arguments: the response, the error, and the body (up to
    /// `keptBodyLimit`, else where to read it) or the downloaded file.
    private func completionHandlerEvent(_ completion: TaskCompletion, of active: ActiveTask) -> DelegateEvent {
        var summary = active.summary
        summary.state = .completed
        let task = active.record
        let data = CompletionHandlerEventData(
            task: summary, response: completion.response, error: completion.error, data: completion.body,
            dataLocation: (completion.filePath ?? completion.fileObject) != nil ? locations.dataLocation(ofTask: task.id) : nil,
            location: location(of: task, with: completion))
        return .completion(data)
    }

    /// Keeps the body of a successful transfer and checks its digest; a failure becomes the task's error.
    private func keepBody(of outcome: TransferOutcome, for task: TaskRecord, in completion: inout TaskCompletion) async {
        let url = outcome.currentRequest.url
        do {
            let digest: String?
            switch outcome.body {
            case .bytes(let bytes) where bytes.count <= configuration.keptBodyLimit:  // a small download too: `/file` reads it
                completion.body = bytes
                digest = task.expectedDigest == nil ? nil : BodyFiles.digest(of: bytes)
            default:
                completion.filePath = try await keepBody(outcome.body, of: task)
                completion.storedBytes = try completion.filePath.map(BodyFiles.size(ofFile:))
                digest = try task.expectedDigest.flatMap { _ in try completion.filePath.map(BodyFiles.digest(ofFile:)) }
            }
            if completion.body != nil || completion.filePath != nil {
                completion.fileExpiresAt = Date().addingTimeInterval(configuration.fileTimeToLive)
            }
            if let expected = task.expectedDigest, digest != expected {
                completion.error = TransferError(.badServerResponse, failingURL: url, userInfo: ["reason": "digestMismatch"])
            } else if completion.filePath != nil {  // a download's file, or a data body too large for the store
                await files.moveToObjectStore(&completion, of: task)
            }
        } catch let diskError {
            logger.error("Keeping a task's body failed", metadata: ["task.id": "\(task.id)", "error": "\(diskError)"])
            completion.error = TransferError(.cannotWriteToFile, failingURL: url)
        }
        if completion.error != nil {
            // A failed task has no body (URLSession hands none to a failed completion).
            if let path = completion.filePath { unlink(path) }
            completion.filePath = nil
            completion.body = nil
            completion.fileExpiresAt = nil
        }
    }

    /// Where the body lives from now on: a finished download is renamed from `.part`; a data body is
    /// written out (or its spill file kept) so `/data` can stream it. Either is fsynced, then its
    /// directory, before the row names it: a power cut cannot leave a completed task without its file.
    private func keepBody(_ body: TransferBody, of task: TaskRecord) async throws -> String? {
        let destination = files.finishedPath(of: task.id)
        switch body {
        case .none:
            return nil
        case .file(let path, _):
            guard rename(path, destination) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        case .bytes(let bytes):
            try BodyFiles.write(bytes, to: destination)
        }
        try await FileDurability.sync(fileAt: destination)
        return destination
    }

    static func transferError(_ failure: TransferFailure, url: String, task: TaskRecord) -> TransferError {
        var userInfo: [String: String] = [:]
        if let reason = failure.reason { userInfo["reason"] = reason }
        if let posix = failure.posixCode {
            // Not a URL error: a WebSocket message over `maximumMessageSize`, which URLSession reports as
            // NSPOSIXErrorDomain EMSGSIZE.
            var error = TransferError(.unknown, failingURL: url, userInfo: userInfo)
            (error.domain, error.code) = ("NSPOSIXErrorDomain", Int(posix))
            (error.name, error.localizedDescription) = ("EMSGSIZE", "Message too long")
            error.underlying = .init(domain: "websocket", code: 1009, message: failure.message)
            return error
        }
        return TransferError(
            URLErrorCode.code(failure.code) ?? .unknown, failingURL: url, userInfo: userInfo,
            underlying: failure.curlCode == 0 ? nil : .init(domain: "libcurl", code: failure.curlCode, message: failure.message))
    }

    /// A download's `location` once `completion` is recorded, when it kept a file (or its bytes).
    func location(of task: TaskRecord, with completion: TaskCompletion) -> String? {
        task.kind == .download && (completion.filePath != nil || completion.fileObject != nil || completion.body != nil)
            ? locations.fileLocation(ofTask: task.id) : nil
    }

    /// The resume data of a download that stopped with `partialPath` on disk: nil (and the file removed)
    /// when it cannot be continued — nothing received yet, or no validator to check the bytes against.
    /// A segmented file's resume data continues it segmented: its journal stays beside it (the token's
    /// offset is what the journal counted when the token was made; its last checkpoint may add to it).
    func resumeData(
        of task: TaskRecord, partialPath: String, response: HTTPResponseSnapshot?, request: URLRequestSnapshot?
    ) -> String? {
        var info = stat()
        let segmented = TaskFiles.segmentedResume(ofPartial: partialPath)
        guard let request, stat(partialPath, &info) == 0, info.st_size > 0, !segmented.isSegmented || segmented.resume != nil,
            let status = response?.statusCode, status == 200 || status == 206,
            let validator = segmented.resume?.validator ?? response?.rangeValidator,
            let token = try? store.token(
                for: ResumeData(
                    tenant: task.tenant, sourceTaskId: task.id, request: request, path: partialPath,
                    offset: segmented.resume?.receivedBytes ?? Int64(info.st_size), validator: validator))
        else {
            TaskFiles.removePartialFile(partialPath)
            return nil
        }
        return token
    }

    /// The close a webSocket task's completion records, and its `webSocketTask.didCloseWith`.
    func webSocketCompletion(_ outcome: TransferOutcome, of active: ActiveTask, into completion: inout TaskCompletion) -> PendingEvent? {
        guard active.record.kind == .webSocket else { return nil }
        channels.webSockets.ended(active.record.id)
        var options = active.record.webSocket ?? WebSocketTaskOptions()
        guard let close = outcome.webSocketClose else {
            completion.webSocket = options
            return nil
        }
        options.closeCode = close.code
        options.closeReason = close.reason.isEmpty ? nil : close.reason
        completion.webSocket = options
        return active.event { .webSocketDidClose($0, closeCode: close.code, reason: options.closeReason) }
    }

    /// `started`: when the attempt that ended began (nil: the task never reached the engine).
    func logCompleted(_ task: TaskRecord, _ completion: TaskCompletion, started: Date?) {
        guard logger.logLevel <= .info else { return }  // the metadata costs ~1 % of a small task's CPU
        var metadata: Logger.Metadata = [
            "tenant": "\(task.tenant)", "session.id": "\(task.sessionId)", "task.id": "\(task.id)", "task.kind": "\(task.kind.rawValue)",
        ]
        metadata["outcome"] = "\(TransferError.outcome(of: completion.error))"
        if let error = completion.error {
            metadata["error.code"] = "\(error.code)"
            metadata["error.name"] = "\(error.name)"
        }
        if let status = completion.response?.statusCode { metadata["http.status"] = "\(status)" }
        if let counts = completion.counts {
            metadata["bytes.received"] = "\(counts.received)"
            metadata["bytes.sent"] = "\(counts.sent)"
        }
        if let started { metadata["seconds"] = "\(String(format: "%.3f", Date().timeIntervalSince(started)))" }
        logger.info("Task completed", metadata: metadata)
    }
}
