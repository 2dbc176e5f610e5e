import Crypto
import Foundation
import Logging
import TransferModels
import TransferStore

extension TaskRunner {
    /// Writes the engine's reports to the store in arrival order; progress is batched (the latest count
    /// of each task, flushed every quarter second or before that task's next response or completion).
    func recordEvents() async {
        var pendingProgress: [String: TaskByteCounts] = [:]
        var lastFlush = ContinuousClock.now
        for await event in eventsStream {
            do {
                switch event {
                case .progress(let id, let progress):
                    pendingProgress[id] = Self.counts(progress)
                case .redirect(let id, let head, let next):
                    // `currentRequest` follows the redirect; `response` shows the 3xx until the next one.
                    guard let task = try await store.task(id: id), let base = task.originalRequest else { break }
                    let response = HTTPResponseSnapshot(url: task.currentRequest?.url ?? base.url, statusCode: head.statusCode, headerLines: head.fields)
                    _ = try await store.recordResponse(
                        id: id, response: response, currentRequest: RequestSnapshots.snapshot(of: next, basedOn: base))
                case .response(let id, let head, let request):
                    try await flush(&pendingProgress)
                    let response = HTTPResponseSnapshot(url: request.url, statusCode: head.statusCode, headerLines: head.fields)
                    _ = try await store.recordResponse(id: id, response: response)
                case .completion(let id, let outcome):
                    pendingProgress[id] = nil
                    try await flush(&pendingProgress)
                    try await record(outcome, of: id)
                }
                if ContinuousClock.now - lastFlush > .milliseconds(250) {
                    try await flush(&pendingProgress)
                    lastFlush = .now
                }
            } catch {
                logger.error("Recording a transfer event failed", metadata: ["error": "\(String(reflecting: error))"])
            }
        }
    }

    private func flush(_ pending: inout [String: TaskByteCounts]) async throws {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll()
        try await store.recordProgress(batch)
    }

    static func counts(_ progress: TransferProgress) -> TaskByteCounts {
        TaskByteCounts(
            sent: progress.bytesSent, expectedToSend: progress.bytesExpectedToSend, received: progress.bytesReceived,
            expectedToReceive: progress.bytesExpectedToReceive)
    }

    /// A transfer ended: keep its body as a file, check the digest, record the metrics and completion.
    private func record(_ outcome: TransferOutcome, of id: String) async throws {
        if suspending.withLock({ $0.remove(id) }) != nil {
            unlink(partialPath(of: id))  // suspended: `resume()` starts again
            return
        }
        guard let task = try await store.task(id: id), task.state != .completed else { return }
        var error = outcome.error.map { Self.transferError($0, url: outcome.currentRequest.url, task: task) }
        var filePath: String?
        if error == nil {
            do {
                filePath = try keepBody(outcome.body, of: task)
                if let expected = task.expectedDigest, let path = filePath, try Self.digest(of: path) != expected {
                    error = TransferError(.badServerResponse, failingURL: outcome.currentRequest.url, userInfo: ["reason": "digestMismatch"])
                }
            } catch let diskError {
                logger.error("Keeping a task's body failed", metadata: ["task.id": "\(id)", "error": "\(diskError)"])
                error = TransferError(.cannotWriteToFile, failingURL: outcome.currentRequest.url)
            }
        }
        if let response = outcome.response, task.response == nil {
            let snapshot = HTTPResponseSnapshot(url: outcome.currentRequest.url, statusCode: response.statusCode, headerLines: response.fields)
            _ = try await store.recordResponse(id: id, response: snapshot)
        }
        let started = startedAt.withLock { $0.removeValue(forKey: id) } ?? task.startedAt ?? Date()
        _ = try await store.completeTask(
            id: id, error: error, filePath: error == nil ? filePath : nil,
            fileExpiresAt: filePath == nil ? nil : Date().addingTimeInterval(configuration.fileTimeToLive),
            metrics: TaskMetricsBuilder.metrics(outcome, task: task, started: started), counts: Self.counts(outcome.progress))
        waiters.completed(id)
    }

    /// Where the body lives from now on: a finished download is renamed from `.part`; a data body is
    /// written out (or its spill file kept) so `/data` can stream it.
    private func keepBody(_ body: TransferBody, of task: TaskRecord) throws -> String? {
        let destination = finishedPath(of: task.id)
        switch body {
        case .none:
            return nil
        case .file(let path, _):
            guard rename(path, destination) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        case .bytes(let bytes):
            try Data(bytes).write(to: URL(fileURLWithPath: destination))
        }
        return destination
    }

    static func digest(of path: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var hash = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(data: chunk) }
        return "sha-256=:\(Data(hash.finalize()).base64EncodedString()):"
    }

    static func transferError(_ failure: TransferFailure, url: String, task: TaskRecord) -> TransferError {
        var userInfo: [String: String] = [:]
        if let reason = failure.reason { userInfo["reason"] = reason }
        return TransferError(
            URLErrorCode.code(failure.code) ?? .unknown, failingURL: url, userInfo: userInfo,
            underlying: failure.curlCode == 0 ? nil : .init(domain: "libcurl", code: failure.curlCode, message: failure.message))
    }

    /// Completes a task that never reached the engine (cancelled while suspended, or unstartable).
    func complete(_ id: String, error: TransferError) async throws -> TaskRecord {
        let record = try await store.completeTask(id: id, error: error)
        waiters.completed(id)
        return record
    }
}
