internal import Foundation

/// A small HTTP client for tests, on libcurl's easy interface. Never FoundationNetworking.
///
/// Each call gets its own easy handle and its own thread: `curl_easy_perform` blocks, and Swift's cooperative
/// pool (two threads on the CI machines) must never be parked on it. Redirects are not followed, proxies
/// from the environment are ignored, and only `http`/`https` are allowed.
///
/// ```swift
/// let client = HTTPClient()
/// let response = try await client.send(.get("\(service.baseURL)/v1/sessions", token: "t1"))
/// #expect(response.status == 200)
/// ```
public final class HTTPClient: Sendable {
    /// Creates a client. It holds no connections, so it needs no shutdown.
    public init() {}

    /// Sends `request` and returns the final response with its whole body.
    ///
    /// Cancelling the calling task aborts the transfer within about a second and throws `CancellationError`.
    /// - Throws: ``HTTPClientError`` when libcurl fails, e.g. code 7 (refused) or 28 (`timeout` elapsed).
    public func send(_ request: TestHTTPRequest) async throws -> TestHTTPResponse {
        try await Self.onDedicatedThread(named: "TestSupport.HTTPClient.send") { control in
            CurlTransfer.perform(request, control: control, onChunk: nil)
        }
    }

    /// Sends `request` and hands each body chunk to `onChunk` as it arrives, e.g. for server-sent events.
    ///
    /// `onChunk` runs on the transfer's thread, so it must be quick and must not block. Returning `false`
    /// stops the transfer at once; that is a normal end, not an error. The returned response carries the
    /// status, the header fields and every body byte received up to the end.
    /// - Throws: ``HTTPClientError`` when libcurl fails, including when `request.timeout` elapses mid-stream.
    public func stream(
        _ request: TestHTTPRequest, onChunk: @escaping @Sendable ([UInt8]) -> Bool
    ) async throws -> TestHTTPResponse {
        try await Self.onDedicatedThread(named: "TestSupport.HTTPClient.stream") { control in
            CurlTransfer.perform(request, control: control, onChunk: onChunk)
        }
    }

    /// Writes `bytes` verbatim to a plain TCP connection and returns everything read back, for requests
    /// no HTTP client would send (malformed request lines, bad framing, oversized headers).
    ///
    /// Reading stops at end of stream, at a connection reset (after what arrived before it), or when
    /// `timeout` seconds have passed since the call began; what arrived by then is returned, not an error,
    /// because a server that keeps the connection alive after answering is not a failure.
    /// - Parameters:
    ///   - halfClose: Shut down the writing side after the bytes are sent, to signal end of request.
    /// - Throws: ``RawSocketError`` when resolving, connecting or reading fails.
    public func sendRaw(
        host: String = "127.0.0.1", port: Int, bytes: [UInt8], timeout: Double = 5, halfClose: Bool = false
    ) async throws -> [UInt8] {
        try await Self.onDedicatedThread(named: "TestSupport.HTTPClient.sendRaw") { control in
            Result {
                try RawExchange.run(
                    host: host, port: port, bytes: bytes, timeout: timeout, halfClose: halfClose, control: control)
            }
        }
    }

    /// Runs blocking `work` on a new thread and resumes the caller with its result.
    ///
    /// One thread per call instead of a shared dispatch queue: a long stream must not hold a worker that
    /// another request is waiting for, and libdispatch caps non-overcommit queues at the core count.
    private static func onDedicatedThread<T: Sendable>(
        named name: String, _ work: @escaping @Sendable (TransferControl) -> Result<T, any Error>
    ) async throws -> T {
        let control = TransferControl()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let thread = Thread { continuation.resume(with: work(control)) }
                thread.name = name
                thread.start()
            }
        } onCancel: {
            control.cancel()
        }
    }
}
