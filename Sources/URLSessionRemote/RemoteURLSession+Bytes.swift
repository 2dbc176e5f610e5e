public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension RemoteURLSession {
    /// `URLSession.AsyncBytes`: the body of a running data task, byte by byte as it arrives. A transfer
    /// that fails mid-body throws its `URLError` when the bytes run out.
    public struct AsyncBytes: AsyncSequence, Sendable {
        public typealias Element = UInt8

        /// The data task whose body this is.
        public let task: RemoteURLSessionDataTask
        let connection: BodyStreamConnection

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(task: self.task, chunks: self.connection.chunks.makeAsyncIterator())
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            let task: RemoteURLSessionDataTask
            var chunks: AsyncThrowingStream<Data, any Error>.AsyncIterator
            var buffer = Data()
            var index = 0
            var finished = false

            init(task: RemoteURLSessionDataTask, chunks: AsyncThrowingStream<Data, any Error>.AsyncIterator) {
                self.task = task
                self.chunks = chunks
            }

            public mutating func next() async throws -> UInt8? {
                while self.index == self.buffer.count {
                    if self.finished { return nil }
                    let chunk: Data?
                    do {
                        chunk = try await self.chunks.next()
                    } catch {
                        // The service cuts the body of a task that failed: the task's error says why.
                        self.finished = true
                        try await self.task.core.waitForCompletion(of: self.task)
                        throw self.task.error ?? error
                    }
                    guard let chunk else {
                        self.finished = true
                        try await self.task.core.waitForCompletion(of: self.task)
                        if let error = self.task.error { throw error }
                        return nil
                    }
                    (self.buffer, self.index) = (chunk, 0)
                }
                defer { self.index += 1 }
                return self.buffer[self.buffer.startIndex + self.index]
            }
        }
    }

    /// `bytes(for:delegate:)`: answers once the response came, with the body to read as it arrives.
    public func bytes(
        for request: URLRequest, delegate: (any RemoteURLSessionDelegate)? = nil
    ) async throws -> (AsyncBytes, URLResponse) {
        let body = try ServiceClient.json(["kind": "data", "request": request.wireObject, "resume": false])
        let made = try await self.core.makeTask(body: body, delegate: delegate, isConvenience: true)
        guard let task = made as? RemoteURLSessionDataTask else { throw URLError(.badServerResponse) }
        let client = self.core.client
        try await client.send("POST", "/v1/tasks/\(task.identifier)/resume")
        let connection = BodyStreamConnection.open(client.request("GET", "/v1/tasks/\(task.identifier)/data", timeout: 3600))
        do {
            _ = try await connection.head()
        } catch let error as RemoteServiceError {
            // The task completed (or failed) before its response: its completion says how.
            try await self.core.waitForCompletion(of: task)
            throw task.error ?? error
        }
        // The head of `/data` comes once the origin's response did; its event may come a moment later.
        try await self.core.waitForResponse(of: task)
        // A failed task's body ends with its error as soon as the client hears of the failure, not only
        // when the service's cut of the body reaches it.
        await self.core.observeCompletion(of: task) { task in
            if let error = task.error { connection.fail(error) }
        }
        return (AsyncBytes(task: task, connection: connection), task.finalResponse)
    }

    /// `bytes(from:delegate:)`.
    public func bytes(from url: URL, delegate: (any RemoteURLSessionDelegate)? = nil) async throws -> (AsyncBytes, URLResponse) {
        try await self.bytes(for: URLRequest(url: url), delegate: delegate)
    }
}
