public import ArgumentParser
import Foundation
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `urlsessiond tasks`: the tasks running in the tenant's shared session (where `urlsessiond get` makes
/// them), one line each — `getAllTasks()`, which lists the tasks not yet completed, as URLSession's does.
public struct TasksCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tasks",
        abstract: "List the tasks running in the shared session (those `urlsessiond get` starts).",
        discussion: ServiceAddress.helpText + "\n\n" + ExitStatus.helpText)

    public init() {}

    public func run() async throws {
        let connection = ServiceAddress.connection()
        let tasks: [RemoteURLSessionTask]
        do {
            tasks = try await RemoteURLSession(sharedSessionOf: connection).getAllTasks()
        } catch {
            let failure = CommandFailure.reachingService(error, at: connection.url)
            TerminalOutput.writeError("urlsessiond tasks: \(failure.message)\n")
            throw ExitCode(failure.status.rawValue)
        }
        print(Self.table(tasks))
    }

    /// `ID  STATE  RECEIVED  URL`, one task a line, the header first.
    static func table(_ tasks: [RemoteURLSessionTask]) -> String {
        var rows = [["TASK", "STATE", "RECEIVED", "URL"]]
        for task in tasks {
            let expected = task.countOfBytesExpectedToReceive
            let received =
                ByteCountText.bytes(task.countOfBytesReceived) + (expected > 0 ? " / \(ByteCountText.bytes(expected))" : "")
            rows.append([task.identifier, "\(task.state.name)", received, task.originalRequest?.url?.absoluteString ?? ""])
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  " + row[3]
        }.joined(separator: "\n")
    }
}

extension URLSessionTask.State {
    /// URLSession's name of the state, as the service's API spells it.
    var name: String {
        switch self {
        case .running: "running"
        case .suspended: "suspended"
        case .canceling: "canceling"
        case .completed: "completed"
        @unknown default: "unknown"
        }
    }
}
