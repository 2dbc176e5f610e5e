import GRDB
import TransferModels

/// Tasks as last read, by id, for the hot reads (`GET /v1/tasks/{id}` and every request that checks a task
/// is the tenant's): memory instead of a query that decodes the row's JSON columns (a completed task's
/// metrics above all) and opens its sealed credentials.
///
/// Never stale: it observes the writer's transactions (GRDB's update hook), so every committed change of a
/// `task` row, whichever statement made it — a state change, a completion, a file's expiry or deletion,
/// retention's delete, a session's cascade — drops that row's entry before the write returns to its caller.
/// A read that ran while a commit changed its row is not kept (`keep(_:readAt:)`).
///
/// It also counts the commits that changed the `task` and `event` tables, so the control plane can keep
/// lists and event pages made from them while the count is unchanged.
final class TaskReadCache: TransactionObserver, Sendable {
    /// Enough for the tasks clients poll at once; each entry is one decoded row (a few KiB with metrics).
    static let capacity = 2048
    /// Commits whose changed rows are remembered for reads in flight; a read older than these is not kept.
    static let remembered = 256

    private let state = LockedBox(State())
    /// What the transaction under way changed (touched on the writer's queue only; locked to be `Sendable`).
    private let pending = LockedBox(Changes())

    private struct Changes {
        var taskRows: Set<Int64> = []
        /// A change GRDB could not attribute to rows (`databaseDidChange()`): everything is dropped.
        var unknown = false
        var events = false
    }

    private struct State {
        var records = BoundedCache<String, TaskRecord>(capacity: TaskReadCache.capacity)
        /// The id of each kept record's row: the update hook names rows, reads name ids.
        var idByRow: [Int64: String] = [:]
        var taskCommits: UInt64 = 0
        var eventCommits: UInt64 = 0
        /// The rows each of the last commits changed (nil: unknown), oldest first.
        var recent: [(commit: UInt64, rows: Set<Int64>?)] = []

        /// Whether no commit after `ticket` changed `row`, as far as the remembered commits tell.
        func unchanged(_ row: Int64, since ticket: UInt64) -> Bool {
            if ticket == taskCommits { return true }
            guard let oldest = recent.first, oldest.commit <= ticket + 1 else { return false }
            return !recent.contains { $0.commit > ticket && ($0.rows?.contains(row) ?? true) }
        }

        mutating func forget(row: Int64) {
            if let id = idByRow.removeValue(forKey: row) { records.removeValue(forKey: id) }
        }
    }

    // MARK: Reads

    func record(id: String) -> TaskRecord? { state.withLock { $0.records[id] } }

    /// Taken before a query: `keep` keeps the row read only when no commit since changed it.
    func ticket() -> UInt64 { state.withLock { $0.taskCommits } }

    var taskCommits: UInt64 { state.withLock { $0.taskCommits } }
    var eventCommits: UInt64 { state.withLock { $0.eventCommits } }

    func keep(_ record: TaskRecord, readAt ticket: UInt64) {
        guard let row = record.rowid else { return }
        state.withLock { state in
            guard state.unchanged(row, since: ticket) else { return }
            state.idByRow[row] = record.id
            for (id, evicted) in state.records.insert(record, for: record.id) {
                if let row = evicted.rowid, state.idByRow[row] == id { state.idByRow.removeValue(forKey: row) }
            }
        }
    }

    // MARK: TransactionObserver (the writer's queue)

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "task" || eventKind.tableName == "event"
    }

    func databaseDidChange(with event: DatabaseEvent) {
        let isTask = event.tableName == "task"
        let row = event.rowID
        pending.withLock { changes in
            if isTask { changes.taskRows.insert(row) } else { changes.events = true }
        }
    }

    func databaseDidChange() { pending.withLock { $0.unknown = true } }

    func databaseDidCommit(_ db: Database) { publish() }

    /// Nothing changed, but what the transaction touched is dropped all the same: it costs a query.
    func databaseDidRollback(_ db: Database) { publish() }

    private func publish() {
        let changes = pending.withLock { changes in
            defer { changes = Changes() }
            return changes
        }
        guard changes.unknown || changes.events || !changes.taskRows.isEmpty else { return }
        state.withLock { state in
            if changes.unknown || changes.events { state.eventCommits += 1 }
            guard changes.unknown || !changes.taskRows.isEmpty else { return }
            state.taskCommits += 1
            if changes.unknown {
                state.records.removeAll()
                state.idByRow = [:]
            } else {
                for row in changes.taskRows { state.forget(row: row) }
            }
            // A huge change (retention's batch) is remembered as unknown rather than held row by row.
            let rows = changes.unknown || changes.taskRows.count > 1000 ? nil : changes.taskRows
            state.recent.append((state.taskCommits, rows))
            if state.recent.count > Self.remembered { state.recent.removeFirst(state.recent.count - Self.remembered) }
        }
    }
}
