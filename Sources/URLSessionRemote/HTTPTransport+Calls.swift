internal import Foundation

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
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let file = FileHandle(forWritingAtPath: destination.path)
        else { throw URLError(.cannotCreateFile, userInfo: [NSURLErrorFailingURLErrorKey: destination]) }
        defer { try? file.close() }
        let response = Locked<HTTPURLResponse?>(nil)
        do {
            try await perform(request, body: nil) { completion in
                HTTPCallHandlers(
                    response: { answer in response.withLock { $0 = answer } },
                    data: { piece in
                        do {
                            try file.write(contentsOf: piece)
                            return nil
                        } catch {
                            return URLError(.cannotWriteToFile, userInfo: [NSUnderlyingErrorKey: error])
                        }
                    },
                    completion: completion)
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
        _ request: URLRequest, body: HTTPRequestBody?, handlers: (@escaping @Sendable (URLError?) -> Void) -> HTTPCallHandlers
    ) async throws {
        let state = Locked(CallState.notMade)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let call = HTTPCall(
                    request, body: body,
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
