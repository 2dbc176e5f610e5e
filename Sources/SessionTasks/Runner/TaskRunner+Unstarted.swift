import Foundation
import TransferModels
import TransferStore

extension TaskRunner {
    /// Completes a task that never reached the engine (cancelled while suspended, or unstartable).
    func complete(_ id: String, error: TransferError, partialPath: String? = nil) async throws -> TaskRecord {
        var completion = TaskCompletion(id: id, error: error)
        completion.partialPath = partialPath
        if let task = try await store.tasks.task(id: id), task.completion != nil {
            // The completion handler is called whatever ended the task.
            var summary = task.summary
            summary.state = .completed
            let data = CompletionHandlerEventData(task: summary, response: task.response, error: error)
            completion.followingEvents = [try DelegateEvent.completion(data).encoded()]
        }
        let record = try await store.tasks.completeTask(completion)
        waiters.completions.completed(id)
        completer.logCompleted(record, completion, started: nil)
        return record
    }
}
