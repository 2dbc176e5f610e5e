public import ArgumentParser
import Foundation
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `urlsessiond get URL [-o FILE]`: one download through a running service, with a progress bar.
///
/// The download is the service's: `URLSession.shared.download(from:delegate:)` as a Swift program would
/// write it with `URLSessionRemote` — a download task in the tenant's shared session (so `urlsessiond
/// tasks` lists it while it runs, and nothing is left to invalidate), progress from its delegate, the
/// finished file fetched from the service and moved into place. Ctrl-C cancels the task on the service.
public struct GetCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download a URL through a running urlsessiond, with a progress bar.",
        discussion: ServiceAddress.helpText + "\n\n" + ExitStatus.helpText)

    @Argument(help: "The URL to download.") var url: String
    @Option(
        name: [.short, .customLong("output")],
        help: "The file to write, - for standard output (default: the URL's last path segment, never over an existing file).")
    var output: String?
    @Flag(name: [.short, .customLong("quiet")], help: "No progress line, only errors.") var quiet = false

    public init() {}

    public func validate() throws {
        guard let parsed = URL(string: url), parsed.scheme != nil, parsed.host != nil else {
            throw ValidationError("'\(url)' is not an absolute URL")
        }
    }

    public func run() async throws {
        var terminal = TerminalOutput()
        do {
            let message = try await download(terminal: terminal)
            if !quiet { terminal.say(message) }
        } catch {
            terminal.say("urlsessiond get: \(error.message)")
            throw ExitCode(error.status.rawValue)
        }
    }

    /// Downloads, moves the file into place and returns the line to end with.
    private func download(terminal: TerminalOutput) async throws(CommandFailure) -> String {
        let source = URL(string: url)!  // checked by `validate()`
        let destination = DownloadDestination(output: output, url: source)
        if let refusal = destination.refusal { throw CommandFailure(status: .cannotCreateOutput, message: refusal) }
        let connection = ServiceAddress.connection()
        let session = RemoteURLSession(sharedSessionOf: connection)
        do {
            _ = try await session.sessionIdentifier()
        } catch {
            throw .reachingService(error, at: connection.url)
        }
        let reporter = quiet ? nil : ProgressReporter(output: terminal)
        let work = Task { try await session.download(from: source, delegate: reporter) }
        let interrupted = InterruptedFlag()
        let interrupt = InterruptSignal {
            interrupted.set()
            work.cancel()
        }
        defer { interrupt.cancel() }
        let file: URL
        let response: URLResponse
        do {
            (file, response) = try await work.value
        } catch {
            throw .transfer(error, interrupted: interrupted.isSet)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? 0
        if let http = response as? HTTPURLResponse, http.statusCode >= 400 {
            try? FileManager.default.removeItem(at: file)
            let reason = HTTPURLResponse.localizedString(forStatusCode: http.statusCode)
            throw CommandFailure(status: .httpError, message: "the origin answered \(http.statusCode) (\(reason)); nothing was saved")
        }
        reporter?.finish(received: size)
        do {
            try destination.take(file)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw CommandFailure(status: .cannotCreateOutput, message: "cannot write the file: \(error.localizedDescription)")
        }
        switch destination {
        case .file(let path, _): return "saved \(path) (\(ByteCountText.bytes(size)))"
        case .standardOutput: return "wrote \(ByteCountText.bytes(size)) to standard output"
        }
    }
}

/// Whether Ctrl-C was pressed: set on the signal's queue, read by the command.
final class InterruptedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
