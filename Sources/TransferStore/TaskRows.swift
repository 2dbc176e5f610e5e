import TransferModels

/// Reading and writing one task's row inside a transaction, as every aggregate that changes a task does
/// (`TaskStore`, `ClusterStore`'s claims, the completions): the lock order on PostgreSQL is kept here.
enum TaskRows {
    /// The row as stored, its request credentials sealed (`RequestSecrets.opened` gives the real ones):
    /// the form a record keeps inside a transaction, so `update` writes them back sealed.
    static func fetchTask(_ db: any StoreConnection, id: String) throws -> TaskRecord {
        guard let task = try db.row("SELECT * FROM task WHERE id = ?" + db.forUpdate, id).map(TaskRecord.init(row:)) else {
            throw TaskStoreError.taskNotFound
        }
        // On PostgreSQL a write locks its task, then its session's row, in the order a report batch takes
        // them (`lockingUnfinished`): two nodes' writes of one session never hold each other's next lock.
        if db.locksRows { _ = try db.rows("SELECT 1 FROM session WHERE id = ?" + db.forUpdate, task.sessionId) }
        return task
    }

    /// Writes every column of `task` (as stored) over its row.
    static func updateTask(_ db: any StoreConnection, _ task: TaskRecord) throws {
        try db.update(columns: try task.columns(), in: "task", key: "id")
    }
}
