import Crypto
import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

extension TaskService {
    /// A transfer ended: keep its body (in the store when small, else as a file), check the digest, and
    /// describe the completion with its metrics and the delegate calls that end the task. A kept file is
    /// on disk (fsynced, with its directory) before this returns, so before the completion is recorded.
    func completion(of outcome: TransferOutcome, from active: ActiveTask, producingResumeData: Bool) async -> TaskCompletion {
        var active = active
        let task = active.record
        let url = outcome.currentRequest.url
        var completion = TaskCompletion(
            id: task.id, error: outcome.error.map { Self.transferError($0, url: url, task: task) },
            metrics: TaskMetricsBuilder.metrics(outcome, task: task, started: active.started),
            counts: Self.counts(outcome.progress))
        if let head = outcome.response {
            completion.response = HTTPResponseSnapshot(url: url, statusCode: head.statusCode, headerLines: head.fields)
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
        if task.kind == .stream { streamChannels.ended(task.id) }
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
        guard !cancelled || wanted, !couldNotWrite, let base = active.record.originalRequest ?? resumedRequest(of: active.record) else {
            TaskFiles.removePartialFile(path)
            return
        }
        let request = RequestSnapshots.snapshot(of: outcome.currentRequest, basedOn: base)
        guard let token = resumeData(of: active.record, partialPath: path, response: completion.response, request: request) else { return }
        completion.error?.userInfo[Self.resumeDataKey] = token
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
                digest = task.expectedDigest == nil ? nil : Self.digest(of: bytes)
            default:
                completion.filePath = try await keepBody(outcome.body, of: task)
                completion.storedBytes = try completion.filePath.map(Self.size(ofFile:))
                digest = try task.expectedDigest.flatMap { _ in try completion.filePath.map(Self.digest(ofFile:)) }
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
        let destination = finishedPath(of: task.id)
        switch body {
        case .none:
            return nil
        case .file(let path, _):
            guard rename(path, destination) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        case .bytes(let bytes):
            try Self.writeFile(bytes, to: destination)
        }
        try await FileDurability.sync(fileAt: destination)
        return destination
    }

    /// Writes a body (`keepBody` fsyncs it, off the concurrency pool).
    static func writeFile(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor)
    }

    /// Writes all of `bytes` at the descriptor's offset (a short write goes on, an interrupted one again).
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {  // bounded: each pass writes at least one byte or throws
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += written
        }
    }

    /// The bytes of a kept file (what the tenant's `storedBytes` quota counts for it).
    static func size(ofFile path: String) throws -> Int64 {
        var status = stat()
        guard stat(path, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return Int64(status.st_size)
    }

    static func digest(ofFile path: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var hash = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(data: chunk) }
        return "sha-256=:\(Data(hash.finalize()).base64EncodedString()):"
    }

    static func digest(of bytes: [UInt8]) -> String {
        "sha-256=:\(Data(SHA256.hash(data: bytes)).base64EncodedString()):"
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

    /// Completes a task that never reached the engine (cancelled while suspended, or unstartable).
    func complete(_ id: String, error: TransferError, partialPath: String? = nil) async throws -> TaskRecord {
        var completion = TaskCompletion(id: id, error: error)
        completion.partialPath = partialPath
        if let task = try await store.tasks.task(id: id), task.completion != nil {
            // The completion handler is called whatever ended the task.
            var summary = task.summary
            summary.state = .completed
            let data = CompletionHandlerEventData(task: summary, response: task.response, error: error)
            completion.followingEvents = [try DelegateEvent.completion(data).encoded()]
        }
        let record = try await store.tasks.completeTask(completion)
        waiters.completed(id)
        logCompleted(record, completion, started: nil)
        return record
    }
}
