public import TransferModels

extension TaskStore {
    /// `PATCH /v1/tasks/{id}` `{"rateLimit": …}`: the task's own bandwidth limit (nil: none), kept with the
    /// task so a later attempt, and a restart, run under it.
    ///
    /// - Throws: `TaskStoreError.taskNotFound` (or another tenant's), `.invalidStateTransition` once the task
    ///   is completed or canceling.
    public func updateRateLimit(id: String, tenant: String, to limit: RateLimit?) async throws -> TaskRecord {
        let task = try await database.write { db in
            var task = try TaskRows.fetchTask(db, id: id)
            guard task.tenant == tenant else { throw TaskStoreError.taskNotFound }
            guard task.state == .running || task.state == .suspended else { throw TaskStoreError.invalidStateTransition }
            task.rateLimit = limit
            try TaskRows.updateTask(db, task)
            return task
        }
        return try requestSecrets.opened(task)
    }
}
