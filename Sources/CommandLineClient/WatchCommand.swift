public import ArgumentParser
import Foundation
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `urlsessiond watch TASK`: a running task's progress line until it completes, for a task another
/// command started (`urlsessiond get` in another terminal, or any client of the shared session).
public struct WatchCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow a running task of the shared session with a progress bar until it completes.",
        discussion: ServiceAddress.helpText + "\n\n" + ExitStatus.helpText)

    @Argument(help: "The task's id (tsk_…), as `urlsessiond tasks` lists it.") var task: String

    public init() {}

    public func run() async throws {
        var output = TerminalOutput()
        let connection = ServiceAddress.connection()
        let session = RemoteURLSession(sharedSessionOf: connection)
        let watched: RemoteURLSessionTask
        do {
            guard let found = try await session.getAllTasks().first(where: { $0.identifier == task }) else {
                output.say("urlsessiond watch: no running task \(task) in the shared session (`urlsessiond tasks` lists them)")
                throw ExitCode(ExitStatus.transferFailed.rawValue)
            }
            watched = found
        } catch let exit as ExitCode {
            throw exit
        } catch {
            let failure = CommandFailure.reachingService(error, at: connection.url)
            output.say("urlsessiond watch: \(failure.message)")
            throw ExitCode(failure.status.rawValue)
        }
        let status = await follow(watched, output: output)
        if status != .success { throw ExitCode(status.rawValue) }
    }

    /// Redraws the task's progress from its counters, which the session keeps current from its events,
    /// until the task completes; then says how it ended.
    private func follow(_ task: RemoteURLSessionTask, output: TerminalOutput) async -> ExitStatus {
        let reporter = ProgressReporter(output: output)
        // Bounded by the task itself: it completes, or Ctrl-C ends the command.
        while task.state != .completed {
            let expected = task.countOfBytesExpectedToReceive
            reporter.report(received: task.countOfBytesReceived, expected: expected > 0 ? expected : nil)
            try? await Task.sleep(for: .milliseconds(200))
        }
        reporter.finish(received: task.countOfBytesReceived)
        if let error = task.error {
            reporter.say("urlsessiond watch: \(CommandFailure.transfer(error, interrupted: false).message)")
            return .transferFailed
        }
        if let http = task.response as? HTTPURLResponse, http.statusCode >= 400 {
            reporter.say("urlsessiond watch: the origin answered \(http.statusCode)")
            return .httpError
        }
        reporter.say("\(task.identifier) completed")
        return .success
    }
}
