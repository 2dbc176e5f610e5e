import Foundation
import TransferEngine
public import TransferModels
import TransferStore

// Streamed uploads (`uploadTask(withStreamedRequest:)`): the body comes from the client through
// `PUT /v1/tasks/{id}/body` while the task runs, into the attempt's `UploadStream`, and is never stored.
extension TaskRunner {
    /// How many bytes of a streamed body wait between the client and the origin at most.
    static let uploadStreamCapacity = 1 << 20

    /// A new stream for the request: its `Content-Length` (when the client set one) is announced to the
    /// origin, else the body goes chunked.
    static func uploadStream(for request: URLRequestSnapshot) -> UploadStream {
        let length = request.value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        return UploadStream(capacity: uploadStreamCapacity, declaredLength: length)
    }

    /// The stream the tenant's task's attempt sends now, from memory only (`PUT …/body` asks on the HTTP
    /// thread); nil when it has none: not the tenant's, not a streamed upload, or no attempt under way
    /// (suspended, completed, just resumed and still starting).
    func uploadStream(of taskId: String, tenant: String) -> UploadStream? {
        table.withLock { state in
            guard let entry = state.entries[taskId], let attempt = entry.attempt ?? entry.prepared?.task,
                attempt.record.tenant == tenant
            else { return nil }
            return attempt.uploadStream
        }
    }

    /// A redirect that keeps the body (307, 308) needs a streamed one from the start again: the attempt
    /// gets a new stream, and `task.needNewBodyStream` asks the client for it (a new `PUT`), as URLSession
    /// asks its delegate. Other dispositions pass unchanged.
    func withNewBodyStream(_ disposition: RedirectDisposition, for transfer: TransferID) -> RedirectDisposition {
        guard case .follow(var request) = disposition, case .stream(let old) = request.body else { return disposition }
        let stream = UploadStream(capacity: old.capacity, declaredLength: old.declaredLength)
        let asking = table.withLock { state -> ActiveTask? in
            guard var attempt = state.entries[transfer.taskId]?.attempt, attempt.number == transfer.attempt else { return nil }
            attempt.uploadStream = stream
            state.entries[transfer.taskId]?.attempt = attempt
            return attempt
        }
        guard let asking else { return disposition }
        writer.append([asking.event { .needNewBodyStream($0) }])
        request.body = .stream(stream)
        return .follow(request)
    }
}

/// Why `PUT /v1/tasks/{id}/body` finds no stream to write into.
public enum StreamedBodyRefusal: Error, Sendable, Equatable {
    /// No task of the tenant with this id is known here.
    case unknownTask
    /// The task is the tenant's but takes no streamed body now (not running, or not a streamed upload).
    case notAwaitingBody(TaskState, isStreamedUpload: Bool)
}

extension TaskRunner {
    /// `uploadStream(of:tenant:)`, waiting while the task runs but its attempt has not started yet (a
    /// `PUT` right after `resume`): polled every 20 ms for at most `within`; a task not in memory is read
    /// from the store.
    func uploadStreamOnceStarted(
        of taskId: String, tenant: String, within timeout: Duration
    ) async -> Result<UploadStream, StreamedBodyRefusal> {
        let deadline = ContinuousClock.now + timeout
        while true {  // bounded by the deadline
            if let stream = uploadStream(of: taskId, tenant: tenant) { return .success(stream) }
            guard let task = try? await store.tasks.task(id: taskId, tenant: tenant) else { return .failure(.unknownTask) }
            let isStreamedUpload = task.uploadSource == .stream
            guard isStreamedUpload, task.state == .running, ContinuousClock.now < deadline else {
                return .failure(.notAwaitingBody(task.state, isStreamedUpload: isStreamedUpload))
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
