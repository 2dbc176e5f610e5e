public import Foundation

extension RemoteURLSessionTask {
    /// What URLSession lets a caller set on a task before `resume()`. The service fixes them when it
    /// creates the task, so they are given to the session's task methods (`downloadTask(with:options:)`).
    public struct Options: Sendable {
        public var taskDescription: String?
        /// 0.0...1.0 (``RemoteURLSessionTask/defaultPriority``, `lowPriority`, `highPriority`).
        public var priority: Float?
        /// The task waits for this date after `resume()` (URLSession's `earliestBeginDate`).
        public var earliestBeginDate: Date?
        public var countOfBytesClientExpectsToSend: Int64?
        public var countOfBytesClientExpectsToReceive: Int64?
        /// Beyond URLSession, downloads only: other URLs of the same file, tried when the request's fails
        /// (the request's URL is put first). The service's `task.didDropMirror` events reach no delegate
        /// method: URLSession has none for them.
        public var mirrors: [URL]?

        public init(
            taskDescription: String? = nil, priority: Float? = nil, earliestBeginDate: Date? = nil,
            countOfBytesClientExpectsToSend: Int64? = nil, countOfBytesClientExpectsToReceive: Int64? = nil,
            mirrors: [URL]? = nil
        ) {
            self.mirrors = mirrors
            self.taskDescription = taskDescription
            self.priority = priority
            self.earliestBeginDate = earliestBeginDate
            self.countOfBytesClientExpectsToSend = countOfBytesClientExpectsToSend
            self.countOfBytesClientExpectsToReceive = countOfBytesClientExpectsToReceive
        }

        /// The fields of `POST /v1/sessions/{id}/tasks` these options set.
        var wireObject: [String: Any] {
            var object: [String: Any] = [:]
            object["taskDescription"] = self.taskDescription
            object["priority"] = self.priority.map { Double($0) }
            if let date = self.earliestBeginDate {
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                object["earliestBeginDate"] = formatter.string(from: date)
            }
            object["countOfBytesClientExpectsToSend"] = self.countOfBytesClientExpectsToSend
            object["countOfBytesClientExpectsToReceive"] = self.countOfBytesClientExpectsToReceive
            return object
        }
    }

    /// `resume()`: a suspended task starts. Asynchronous because the service is asked; it throws
    /// ``RemoteServiceError`` (409) for a task that already completed, where URLSession ignores the call.
    public func resume() async throws {
        self.update(from: try await self.core.client.decode(WireTask.self, "POST", "/v1/tasks/\(self.identifier)/resume"))
    }

    /// `suspend()`: the transfer stops moving bytes (and its timeouts stop) until `resume()`.
    public func suspend() async throws {
        self.update(from: try await self.core.client.decode(WireTask.self, "POST", "/v1/tasks/\(self.identifier)/suspend"))
    }

    /// `cancel()`: the task completes with `URLError(.cancelled)` (the delegate hears it). Cancelling a task
    /// that already completed does nothing, as in URLSession.
    public func cancel() async throws {
        do {
            let answer = try await self.core.client.decode(
                WireCancelResponse.self, "POST", "/v1/tasks/\(self.identifier)/cancel", json: Data("{}".utf8))
            self.update(from: answer.task)
        } catch let error as RemoteServiceError where error.status == 409 {
            return
        }
    }
}

extension RemoteURLSessionDownloadTask {
    /// `cancel(byProducingResumeData:)` (its async form): the resume data for
    /// `downloadTask(withResumeData:)` or `download(resumeFrom:)`, or nil when the download cannot resume
    /// (the origin does not support ranges) or had completed.
    public func cancelByProducingResumeData() async throws -> Data? {
        do {
            let answer = try await self.core.client.decode(
                WireCancelResponse.self, "POST", "/v1/tasks/\(self.identifier)/cancel",
                json: Data(#"{"byProducingResumeData": true}"#.utf8), timeout: 120)
            self.update(from: answer.task)
            return answer.resumeData.map { Data($0.utf8) }
        } catch let error as RemoteServiceError where error.status == 409 {
            return nil
        }
    }
}
