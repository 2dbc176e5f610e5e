import Foundation
import TransferEngine
import TransferModels
import TransferStore

// Streamed uploads (`uploadTask(withStreamedRequest:)`): the body comes from the client through
// `PUT /v1/tasks/{id}/body` while the task runs (`TaskConnections.uploadStream`), into the attempt's
// `UploadStream`, and is never stored.
extension TaskRunner {
    /// How many bytes of a streamed body wait between the client and the origin at most: twice libcurl's
    /// send buffer (`Transfer.uploadBufferSize`, 2 MiB), so the origin's side takes a full buffer while the
    /// client's side fills the other half. With 1 MiB the two sides woke each other about four times as
    /// often and the service spent half again as much CPU on a GiB (BENCHMARKS.md, "Uploads at line rate").
    static let uploadStreamCapacity = 4 << 20

    /// A new stream for the request: its `Content-Length` (when the client set one) is announced to the
    /// origin, else the body goes chunked.
    static func uploadStream(for request: URLRequestSnapshot) -> UploadStream {
        let length = request.value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        return UploadStream(capacity: uploadStreamCapacity, declaredLength: length)
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
