import Crypto
import Foundation
import Logging
import TransferModels
import TransferStore

extension TaskRunner {
    /// Writes the engine's reports to the store. Each task's reports keep their order; completions of
    /// different tasks are recorded concurrently (up to `concurrentCompletions`), so small tasks are not
    /// chained one SQLite transaction after another. Progress and response heads are kept in memory and
    /// written every quarter second, or with the completion's own transaction.
    func recordEvents() async {
        var pendingProgress: [String: TaskByteCounts] = [:]
        var pendingResponses: [String: HTTPResponseSnapshot] = [:]
        var lastFlush = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for await event in eventsStream {
                do {
                    switch event {
                    case .progress(let id, let progress):
                        pendingProgress[id] = Self.counts(progress)
                    case .redirect(let id, let head, let next):
                        pendingResponses[id] = nil
                        try await recordRedirect(id, head: head, next: next)
                    case .response(let id, let head, let request):
                        pendingResponses[id] = HTTPResponseSnapshot(url: request.url, statusCode: head.statusCode, headerLines: head.fields)
                    case .completion(let id, let outcome):
                        pendingProgress[id] = nil
                        let response = pendingResponses.removeValue(forKey: id)
                        if inFlight >= Self.concurrentCompletions {
                            await group.next()
                            inFlight -= 1
                        }
                        inFlight += 1
                        group.addTask { await self.recordCompletion(outcome, of: id, response: response) }
                    }
                    if ContinuousClock.now - lastFlush > .milliseconds(250) {
                        try await flush(&pendingProgress)
                        for (id, response) in pendingResponses { _ = try? await store.recordResponse(id: id, response: response) }
                        pendingResponses.removeAll()
                        lastFlush = .now
                    }
                } catch {
                    logger.error("Recording a transfer event failed", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
        }
    }

    static let concurrentCompletions = 8

    private func recordRedirect(_ id: String, head: ResponseHead, next: OutgoingRequest) async throws {
        // `currentRequest` follows the redirect; `response` shows the 3xx until the next one.
        guard let task = try await store.task(id: id), let base = task.originalRequest else { return }
        let response = HTTPResponseSnapshot(url: task.currentRequest?.url ?? base.url, statusCode: head.statusCode, headerLines: head.fields)
        _ = try await store.recordResponse(id: id, response: response, currentRequest: RequestSnapshots.snapshot(of: next, basedOn: base))
    }

    private func recordCompletion(_ outcome: TransferOutcome, of id: String, response: HTTPResponseSnapshot?) async {
        do {
            try await record(outcome, of: id, response: response)
        } catch {
            logger.error("Recording a completion failed", metadata: ["task.id": "\(id)", "error": "\(String(reflecting: error))"])
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
    private func record(_ outcome: TransferOutcome, of id: String, response pending: HTTPResponseSnapshot?) async throws {
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
        let response = pending ?? outcome.response.flatMap { head in
            task.response == nil
                ? HTTPResponseSnapshot(url: outcome.currentRequest.url, statusCode: head.statusCode, headerLines: head.fields) : nil
        }
        let started = startedAt.withLock { $0.removeValue(forKey: id) } ?? task.startedAt ?? Date()
        _ = try await store.completeTask(
            id: id, error: error, filePath: error == nil ? filePath : nil,
            fileExpiresAt: filePath == nil ? nil : Date().addingTimeInterval(configuration.fileTimeToLive),
            metrics: TaskMetricsBuilder.metrics(outcome, task: task, started: started), counts: Self.counts(outcome.progress),
            response: response)
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
            try Self.writeFile(bytes, to: destination)
        }
        return destination
    }

    /// Writes a small body without `Data.write`'s fsync: the file is a cache of the response, and the row
    /// that points at it commits after it is written.
    static func writeFile(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += written
        }
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
