/// `URLSessionDataTask`, `URLSessionDownloadTask`, `URLSessionUploadTask`, `URLSessionWebSocketTask` or
/// `URLSessionStreamTask`.
public enum TaskKind: String, Codable, Sendable, CaseIterable {
    case data, download, upload, webSocket, stream
}

/// `URLSessionTask.State`, by its Swift case names.
public enum TaskState: String, Codable, Sendable, CaseIterable {
    case running, suspended, canceling, completed

    /// Whether a task in this state may move to `next` through `resume()`, `suspend()` or `cancel()`.
    ///
    /// Mirrors URLSession: suspended and running tasks swap freely and may be cancelled; a cancelling
    /// task only completes; a completed task never changes again. Completion itself is not a transition
    /// callers request (it is recorded with the task's outcome), so `.completed` is never a valid `next`.
    /// Staying in the same state is not a transition either: callers treat it as a no-op, as URLSession
    /// ignores `resume()` on a running task.
    public func allowsTransition(to next: TaskState) -> Bool {
        switch (self, next) {
        case (.suspended, .running), (.running, .suspended): true
        case (.suspended, .canceling), (.running, .canceling): true
        default: false
        }
    }
}

/// `URLSessionTask.priority`'s named values.
public enum TaskPriority {
    /// `URLSessionTask.lowPriority`.
    public static let low = 0.25
    /// `URLSessionTask.defaultPriority`, what a task gets when the client names none.
    public static let `default` = 0.5
    /// `URLSessionTask.highPriority`.
    public static let high = 0.75
}
