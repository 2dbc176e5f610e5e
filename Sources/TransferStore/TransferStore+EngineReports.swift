import Foundation
import GRDB
public import TransferModels

/// A task's response head as the engine last saw it, and the request it now sends after a redirect.
public struct ResponseReport: Sendable {
    public var response: HTTPResponseSnapshot
    public var currentRequest: URLRequestSnapshot?

    public init(response: HTTPResponseSnapshot, currentRequest: URLRequestSnapshot? = nil) {
        self.response = response
        self.currentRequest = currentRequest
    }
}

extension TransferStore {
    /// Writes what the engine reported since the last call in ONE transaction: counters, response heads,
    /// then completions. Group commit is what lets thousands of small tasks a second complete: the cost
    /// of a transaction is shared by every report in it. Reports of tasks that have completed are
    /// skipped (their final values came with the completion). Returns the ids that completed now.
    ///
    /// A completion that cannot be written does not hold back the others: when the batch fails, the
    /// completions are retried one transaction each and the failures are returned as errors.
    public func recordEngineReports(
        progress: [String: TaskByteCounts], responses: [String: ResponseReport], completions: [TaskCompletion]
    ) async throws -> (completed: Set<String>, failures: [String: any Error]) {
        guard !progress.isEmpty || !responses.isEmpty || !completions.isEmpty else { return ([], [:]) }
        do {
            let (completed, sessions): (Set<String>, [String: SessionAdvance]) = try await pool.write { db in
                try Self.writeProgress(db, progress)
                try Self.writeResponses(db, responses)
                var completed = Set<String>()
                var sessions: [String: SessionAdvance] = [:]
                for completion in completions {
                    guard let advance = try Self.complete(db, completion) else { continue }
                    completed.insert(completion.id)
                    sessions[advance.sessionId, default: advance].merge(advance)
                }
                return (completed, sessions)
            }
            for advance in sessions.values { publish(advance) }
            return (completed, [:])
        } catch {
            guard !completions.isEmpty else { throw error }
            var completed = Set<String>()
            var failures: [String: any Error] = [:]
            for completion in completions {
                do {
                    completed.formUnion(try await completeTasks([completion]))
                } catch let failure {
                    failures[completion.id] = failure
                }
            }
            return (completed, failures)
        }
    }

    static func writeProgress(_ db: Database, _ updates: [String: TaskByteCounts]) throws {
        guard !updates.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            UPDATE task SET countOfBytesSent = ?, countOfBytesExpectedToSend = ?, countOfBytesReceived = ?,
            countOfBytesExpectedToReceive = ? WHERE id = ? AND state <> 'completed'
            """)
        for (id, counts) in updates {
            try statement.execute(arguments: [
                counts.sent, counts.expectedToSend, counts.received, counts.expectedToReceive, id,
            ])
        }
    }

    static func writeResponses(_ db: Database, _ reports: [String: ResponseReport]) throws {
        guard !reports.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            UPDATE task SET response = ?, currentRequest = COALESCE(?, currentRequest)
            WHERE id = ? AND state <> 'completed'
            """)
        for (id, report) in reports {
            try statement.execute(arguments: [
                try StoredJSON.text(report.response), try StoredJSON.text(report.currentRequest), id,
            ])
        }
    }
}
