internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#endif

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

extension HTTPTransport {
    /// URLSession's `data(for:)` (and `upload(for:from:)`, `upload(for:fromFile:)` with `body`): the answer
    /// and its whole body. Cancelling the calling task cancels the call (`URLError(.cancelled)`).
    func data(for request: URLRequest, body: HTTPRequestBody? = nil) async throws -> (Data, HTTPURLResponse) {
        let received = Locked<(response: HTTPURLResponse?, body: Data)>((nil, Data()))
        try await perform(request, body: body) { completion in
            HTTPCallHandlers(
                response: { response in received.withLock { $0.response = response } },
                data: { piece in
                    received.withLock { $0.body.append(contentsOf: piece) }
                    return nil
                },
                completion: completion)
        }
        let (response, body) = received.withLock { ($0.response, $0.body) }
        guard let response else { throw URLError(.badServerResponse) }
        return (body, response)
    }

    /// The answer's body written into a new file at `destination` (removed again when the call fails).
    func download(for request: URLRequest, to destination: URL) async throws -> HTTPURLResponse {
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw URLError(.cannotCreateFile, userInfo: [NSURLErrorFailingURLErrorKey: destination]) }
        defer { close(descriptor) }
        let file = FileSink(descriptor: descriptor)
        let response = Locked<HTTPURLResponse?>(nil)
        do {
            try await perform(request, body: nil, bufferSize: FileSink.blockSize) { completion in
                HTTPCallHandlers(
                    response: { answer in response.withLock { $0 = answer } },
                    data: { piece in file.append(piece) ? nil : URLError(.cannotWriteToFile) },
                    completion: { error in
                        let flushed = error == nil ? file.flush() : true
                        completion(error ?? (flushed ? nil : URLError(.cannotWriteToFile)))
                    })
            }
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw error
        }
        guard let answer = response.withLock({ $0 }) else { throw URLError(.badServerResponse) }
        return answer
    }

    /// Runs one call made by `handlers` (given its completion) until it ends, cancelling it with the task.
    private func perform(
        _ request: URLRequest, body: HTTPRequestBody?, bufferSize: Int = 64 << 10,
        handlers: (@escaping @Sendable (URLError?) -> Void) -> HTTPCallHandlers
    ) async throws {
        let state = Locked(CallState.notMade)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let call = HTTPCall(
                    request, body: body, bufferSize: bufferSize,
                    handlers: handlers { error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                    })
                let cancelledAlready = state.withLock { state in
                    guard case .notMade = state else { return true }
                    state = .made(call)
                    return false
                }
                if cancelledAlready { call.markCancelled() }
                start(call)
            }
        } onCancel: {
            let made: HTTPCall? = state.withLock { state in
                guard case .made(let call) = state else {
                    state = .cancelled
                    return nil
                }
                return call
            }
            made.map(cancel)
        }
    }

    private enum CallState {
        case notMade
        case made(HTTPCall)
        /// The task was cancelled before the call was made: it is made cancelled.
        case cancelled
    }
}

/// A file written in blocks of 1 MiB: libcurl hands the body over 16 KiB at a time (`CURL_MAX_WRITE_SIZE`),
/// and a `write` for each piece doubled the client's CPU for a large file.
///
/// `@unchecked Sendable`: used only on the transport's thread, one call's pieces in order.
private final class FileSink: @unchecked Sendable {
    static let blockSize = 1 << 20
    private let descriptor: Int32
    private var pending: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
        pending.reserveCapacity(Self.blockSize)
    }

    /// False on an error of the file (a full disk).
    func append(_ piece: UnsafeRawBufferPointer) -> Bool {
        pending.append(contentsOf: piece)
        return pending.count < Self.blockSize || flush()
    }

    func flush() -> Bool {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {  // bounded: each turn writes at least one byte or returns
                let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
    }
}
