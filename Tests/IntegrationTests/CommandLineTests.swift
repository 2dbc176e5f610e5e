import Foundation
import TestSupport
import Testing

/// `urlsessiond get`, `tasks` and `watch`: the binary run as a user runs it, against a running service and
/// the fixture origin, judged by its exit status, its messages and the file it leaves.
@Suite("The command line: urlsessiond get, tasks, watch")
struct CommandLineTests {
    /// Runs `urlsessiond ARGUMENTS` in `directory` against `service` with `token`.
    func urlsessiond(
        _ arguments: [String], service: ServiceProcess?, token: String = Tokens.tenantA, in directory: URL,
        serviceURL: String? = nil
    ) async throws -> ScriptRun {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("URLSESSIOND_") }
        environment["URLSESSIOND_URL"] = serviceURL ?? service?.baseURL
        environment["URLSESSIOND_TOKEN"] = token
        return try await runProgram(
            try ServiceProcess.binaryURL(), arguments: arguments, in: directory, environment: environment, timeout: .seconds(60))
    }

    @Test("get downloads to the URL's name, says where, exits 0; a second get refuses to overwrite it", .timeLimit(.minutes(2)))
    func getDownloadsAFile() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "cli-get")
        defer { directory.remove() }
        try await withTaskService { _, service in
            let url = origin.url("/bytes/3000000?seed=5")
            let run = try await urlsessiond(["get", url], service: service, in: directory.url)
            #expect(run.status == 0, "\(run.errors)")
            let file = directory.url.appendingPathComponent("3000000")
            #expect(try Data(contentsOf: file) == Data(FixtureOrigin.bytes(count: 3_000_000, seed: 5)))
            #expect(run.errors.contains("saved 3000000 (2.9 MiB)"), "\(run.errors)")
            #expect(run.errors.contains("100% 2.9 MiB of 2.9 MiB"), "the final progress line, plain off a terminal: \(run.errors)")
            #expect(run.output.isEmpty, "progress and messages go to standard error")

            let again = try await urlsessiond(["get", url], service: service, in: directory.url)
            #expect(again.status == 73, "\(again.errors)")
            #expect(again.errors.contains("3000000 exists"))
        }
    }

    @Test("get -o names the file, -o - writes the body to standard output", .timeLimit(.minutes(2)))
    func getOutput() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "cli-output")
        defer { directory.remove() }
        try await withTaskService { _, service in
            let named = try await urlsessiond(
                ["get", origin.url("/bytes/1000?seed=2"), "-o", "a.bin"], service: service, in: directory.url)
            #expect(named.status == 0, "\(named.errors)")
            #expect(try Data(contentsOf: directory.url.appendingPathComponent("a.bin")) == Data(FixtureOrigin.bytes(count: 1000, seed: 2)))
            // A named pipe (like /dev/null) is written into, never replaced.
            let fifo = directory.url.appendingPathComponent("pipe")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            let reader = Process()
            reader.executableURL = URL(fileURLWithPath: "/bin/sh")
            reader.arguments = ["-c", "cat pipe > from-pipe"]
            reader.currentDirectoryURL = directory.url
            try reader.run()
            let intoPipe = try await urlsessiond(
                ["get", origin.url("/bytes/5000?seed=3"), "-o", "pipe"], service: service, in: directory.url)
            if intoPipe.status != 0 { reader.terminate() }  // nothing will open the pipe: its reader waits
            try await exited(reader)
            #expect(intoPipe.status == 0, "\(intoPipe.errors)")
            #expect(
                try Data(contentsOf: directory.url.appendingPathComponent("from-pipe")) == Data(FixtureOrigin.bytes(count: 5000, seed: 3)))
            let kind = try FileManager.default.attributesOfItem(atPath: fifo.path)[.type] as? FileAttributeType
            #expect(kind != .typeRegular, "still the pipe, not replaced by a file")

            let piped = try await urlsessiond(["get", origin.url("/echo"), "-o", "-", "--quiet"], service: service, in: directory.url)
            #expect(piped.status == 0, "\(piped.errors)")
            #expect(piped.output.contains("\"method\""), "the body on standard output: \(piped.output)")
            #expect(piped.errors.isEmpty, "--quiet: \(piped.errors)")
        }
    }

    @Test("each failure has its own exit status and one line saying what failed", .timeLimit(.minutes(2)))
    func failures() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "cli-failures")
        defer { directory.remove() }
        try await withTaskService { _, service in
            let notFound = try await urlsessiond(["get", origin.url("/status/404"), "-o", "x"], service: service, in: directory.url)
            #expect(notFound.status == 22, "\(notFound.errors)")
            #expect(notFound.errors.contains("the origin answered 404"))
            #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("x").path), "nothing kept")

            let closedPort = try RefusingPort()
            let refused = try await urlsessiond(
                ["get", "http://127.0.0.1:\(closedPort.port)/x", "-o", "y"], service: service, in: directory.url)
            #expect(refused.status == 1, "\(refused.errors)")
            #expect(refused.errors.contains("NSURLErrorDomain -1004"), "\(refused.errors)")

            let badToken = try await urlsessiond(
                ["get", origin.url("/bytes/10"), "-o", "z"], service: service, token: "not-a-token-0123456789", in: directory.url)
            #expect(badToken.status == 77, "\(badToken.errors)")
            #expect(badToken.errors.contains("URLSESSIOND_TOKEN"))

            let usage = try await urlsessiond(["get", "not a url"], service: service, in: directory.url)
            #expect(usage.status == 64, "\(usage.errors)")
        }
        let noService = try RefusingPort()
        let down = try await urlsessiond(
            ["get", "http://127.0.0.1:1/x", "-o", "w"], service: nil, in: directory.url, serviceURL: "http://127.0.0.1:\(noService.port)")
        #expect(down.status == 69, "\(down.errors)")
        #expect(down.errors.contains("cannot reach urlsessiond"), "\(down.errors)")
    }

    @Test("tasks lists a running get, watch follows another to its end, Ctrl-C cancels the task on the service", .timeLimit(.minutes(2)))
    func tasksWatchAndInterrupt() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "cli-tasks")
        defer { directory.remove() }
        try await withTaskService { _, service in
            // A download that stalls after its first bytes: it runs until cancelled.
            let stalled = try launch(
                ["get", origin.url("/stall?bytes=1000&total=100000"), "-o", "s.bin"], service: service, in: directory.url)
            let stalledTask = try await runningTask(path: "/stall", service: service, in: directory.url)
            // One held at a gate, followed by `watch` from another process; the gate opens once `watch`
            // has drawn its first line, so the task is surely running when `watch` looks for it.
            let gated = try launch(
                ["get", origin.url("/gate/watched?bytes=1000&total=100000"), "-o", "g.bin"], service: service, in: directory.url)
            let gatedTask = try await runningTask(path: "/gate/watched", service: service, in: directory.url)
            let watchLog = directory.url.appendingPathComponent("watch.log")
            let watch = try launch(["watch", gatedTask], service: service, in: directory.url, errors: watchLog)
            for _ in 0..<200 where ((try? Data(contentsOf: watchLog))?.isEmpty ?? true) && watch.isRunning {  // 20 s at most
                try await Task.sleep(for: .milliseconds(100))
            }
            origin.openGate("watched")
            try await exited(watch)
            let watched = String(decoding: (try? Data(contentsOf: watchLog)) ?? Data(), as: UTF8.self)
            #expect(watch.terminationStatus == 0, "\(watched)")
            #expect(watched.contains("\(gatedTask) completed"), "\(watched)")
            try await exited(gated)
            #expect(gated.terminationStatus == 0)
            #expect(try Data(contentsOf: directory.url.appendingPathComponent("g.bin")) == Data(FixtureOrigin.bytes(count: 100_000)))

            kill(stalled.processIdentifier, SIGINT)
            try await exited(stalled)
            #expect(stalled.terminationStatus == 130, "Ctrl-C: the exit status of an interrupted command")
            #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("s.bin").path))
            let after = try await urlsessiond(["tasks"], service: service, in: directory.url)
            #expect(!after.output.contains(stalledTask), "cancelled on the service, so no longer running: \(after.output)")
            let gone = try await urlsessiond(["watch", stalledTask], service: service, in: directory.url)
            #expect(gone.status == 1 && gone.errors.contains("no running task"), "\(gone.errors)")
        }
    }

    @Test("a command waiting for the service's answer sleeps: next to no CPU while nothing comes", .timeLimit(.minutes(1)))
    func waitingSpendsNoProcessor() async throws {
        // A service that never answers: the kernel accepts the connection, nothing reads the request.
        let silent = try RefusingPort()
        let descriptor = silent.takeDescriptor()
        defer { close(descriptor) }
        #expect(listen(descriptor, 8) == 0)
        let directory = try TemporaryDirectory.make(prefix: "cli-silent")
        defer { directory.remove() }
        let waiting = try launch(["tasks"], serviceURL: "http://127.0.0.1:\(silent.port)", in: directory.url)
        defer { waiting.terminate() }
        try await Task.sleep(for: .seconds(4))
        #expect(waiting.isRunning, "still waiting for the answer")
        // FoundationNetworking's URLSession spun here: over 2 s of CPU in these 4 s (a whole core).
        let seconds = try processorSeconds(of: waiting.processIdentifier)
        #expect(seconds < 1.0, "\(seconds) s of CPU while waiting 4 s")
    }

    /// User and system CPU time of a running process, from `/proc/PID/stat`.
    func processorSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The fields after the command's closing parenthesis: state is the 3rd field, utime the 14th.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Starts `urlsessiond ARGUMENTS` without waiting for it; its standard error goes to `errors` (or nowhere).
    func launch(_ arguments: [String], service: ServiceProcess, in directory: URL, errors: URL? = nil) throws -> Process {
        try launch(arguments, serviceURL: service.baseURL, in: directory, errors: errors)
    }

    func launch(_ arguments: [String], serviceURL: String, in directory: URL, errors: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = try ServiceProcess.binaryURL()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("URLSESSIOND_") }
        environment["URLSESSIOND_URL"] = serviceURL
        environment["URLSESSIOND_TOKEN"] = Tokens.tenantA
        process.environment = environment
        (process.standardInput, process.standardOutput, process.standardError) = (
            FileHandle.nullDevice, FileHandle.nullDevice, FileHandle.nullDevice
        )
        if let errors {
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errors)
        }
        try process.run()
        return process
    }

    /// Waits for `process` to end, 30 s at most (then it is terminated): polled, because Foundation's
    /// `waitUntilExit()` blocks the calling thread, one of the two of Swift's cooperative pool here, and
    /// was seen never to return under load.
    func exited(_ process: Process) async throws {
        for _ in 0..<300 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { process.terminate() }
        for _ in 0..<50 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
    }

    /// The id of the running task whose URL has `path`, as `urlsessiond tasks` lists it (within 20 s).
    func runningTask(path: String, service: ServiceProcess, in directory: URL) async throws -> String {
        for _ in 0..<100 {
            let listing = try await urlsessiond(["tasks"], service: service, in: directory)
            #expect(listing.status == 0, "\(listing.errors)")
            #expect(listing.output.hasPrefix("TASK"), "a header first: \(listing.output)")
            if let line = listing.output.split(separator: "\n").first(where: { $0.contains(path) && $0.contains("running") }) {
                return String(line.prefix { $0 != " " })
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw CommandLineTestError.notListed(path)
    }
}

enum CommandLineTestError: Error {
    case notListed(String)
}
