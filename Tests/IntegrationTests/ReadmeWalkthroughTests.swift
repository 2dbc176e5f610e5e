import Foundation
import TestSupport
import Testing

/// README.md's walk-through, run as a new user would run it: every `sh` block of "A walk-through with curl",
/// in order, in one bash (`set -euo pipefail`), against the real binary started as `make run` starts it (no
/// token configured: the generated one is read from `data/token`) with local origins allowed as the README
/// says. So the document cannot drift from the service again.
///
/// What stands in for the outside world (`ReadmeWalkthrough.substitutions`, each checked to still occur in
/// the README): example.org's files are resources of the fixture origin, the WebSocket echo server and the
/// mail server are local ones (a greeting, `STARTTLS`, TLS under a certificate the service trusts through
/// `URLSESSIOND_CA_FILE`), and the user's own files and programs (`client.p12`, `pg_dump`) are made here.
///
/// Every HTTP status the README's curl calls get is recorded (a `curl` function adds `-w` to stderr): a
/// status of 400 or more, or no answer at all, fails the test unless the block announces that status, and
/// so does an `"error": {…}` in a printed task that the block does not announce.
@Suite("README walk-through")
struct ReadmeWalkthroughTests {
    @Test(.timeLimit(.minutes(3)))
    func theWalkThroughRunsAsWritten() async throws {
        let readme = try String(contentsOf: ReadmeWalkthrough.readmeURL, encoding: .utf8)
        let blocks = ReadmeWalkthrough.blocks(of: readme)
        try #require(blocks.count >= 10, "the walk-through's shell blocks: \(blocks.count)")

        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let webSockets = try await WebSocketEchoOrigin.start()
        defer { webSockets.stop() }
        let mail = try await TCPEchoOrigin.start(starttls: true, greeting: "220 mail.example.org ESMTP\r\n")
        defer { mail.stop() }
        for (name, size) in [("file.bin", 300_000), ("live.ndjson", 1_500_000), ("big.iso", 6_000_000), ("a.bin", 1000), ("ingest", 10)] {
            origin.setResource(name, body: FixtureOrigin.bytes(count: size, seed: 31), etag: "\"\(name)\"", lastModified: nil)
        }
        let work = try TemporaryDirectory.make(prefix: "readme")
        defer { work.remove() }
        let trusted = work.appending("mail.pem")
        try Data(try #require(mail.certificatePEM).utf8).write(to: trusted)
        let environment = ["URLSESSIOND_EGRESS_ALLOW": "127.0.0.0/8", "URLSESSIOND_CA_FILE": trusted.path]

        try await withRunningService(environment: environment) { service, _ in
            // `make run` keeps its data in ./data; the blocks run where `data` is the service's directory.
            try FileManager.default.createSymbolicLink(at: work.appending("data"), withDestinationURL: service.dataDirectory)
            try await ReadmeWalkthrough.makeUsersFiles(in: work.url)
            let substitutions = ReadmeWalkthrough.substitutions(
                service: service.baseURL, origin: origin.url("/resource/"), webSocket: webSockets.url("/echo"),
                mailPort: mail.port)
            for (original, _) in substitutions {
                #expect(readme.contains(original), "the README no longer has \(original): update the substitutions")
            }
            let script = ReadmeWalkthrough.script(blocks: blocks, substitutions: substitutions)
            try script.write(to: work.appending("walkthrough.sh"), atomically: true, encoding: .utf8)
            var environment = ProcessInfo.processInfo.environment
            // python3 with `websockets` (the README's relay example), as in the test venv.
            environment["PATH"] = venvProgram("python").deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            let run = try await runProgram(
                URL(fileURLWithPath: "/bin/bash"), arguments: ["walkthrough.sh"], in: work.url, environment: environment,
                timeout: .seconds(150))
            let transcript = "\n--- stdout\n\(run.output.suffix(6000))\n--- stderr\n\(run.errors.suffix(4000))"
            #expect(run.status == 0, "the walk-through stopped (status \(run.status))\(transcript)")
            for fault in ReadmeWalkthrough.unannouncedFaults(blocks: blocks, output: run.output, errors: run.errors) {
                Issue.record("\(fault)\(transcript)")
            }
            #expect(run.errors.contains("README-BLOCK \(blocks.count)"), "not every block ran\(transcript)")
        }
    }
}

/// The walk-through's blocks, how they are run, and what their output may contain.
enum ReadmeWalkthrough {
    static let readmeURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The `sh` blocks between "## A walk-through with curl" and the next `## ` heading.
    static func blocks(of readme: String) -> [String] {
        var blocks: [String] = []
        var inSection = false
        var current: [Substring]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inSection = line == "## A walk-through with curl" }
            guard inSection else { continue }
            if current == nil, line == "```sh" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The outside world the README names, and what stands in for it here.
    static func substitutions(service: String, origin: String, webSocket: String, mailPort: Int) -> [(String, String)] {
        let port = service.split(separator: ":").last.map(String.init) ?? "8080"
        return [
            ("http://127.0.0.1:8080", service),
            ("ws://127.0.0.1:8080", "ws://127.0.0.1:\(port)"),
            ("https://example.org/", origin),
            ("wss://echo.example.org/chat", webSocket),
            (#""hostName": "mail.example.org", "port": 587"#, #""hostName": "127.0.0.1", "port": \#(mailPort)"#),
        ]
    }

    /// The files and programs the README takes as the user's own: a client certificate bundle (its
    /// passphrase is the README's placeholder) and a database dump.
    static func makeUsersFiles(in directory: URL) async throws {
        let openssl =
            "openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=client -days 1 -keyout key.pem -out cert.pem"
            + " && openssl pkcs12 -export -inkey key.pem -in cert.pem -passout 'pass:…' -out client.p12"
        let run = try await runProgram(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", openssl], in: directory, timeout: .seconds(60))
        guard run.status == 0 else { throw ServiceProcessError("openssl could not make client.p12: \(run.errors)") }
    }

    /// One bash script: the blocks in order, each after a marker on stderr, and `curl` reporting each status.
    static func script(blocks: [String], substitutions: [(String, String)]) -> String {
        var script = #"""
            set -euo pipefail
            # Every status on stderr. A server-sent event stream never ends: it is read for 3 s.
            curl() {
                local arg
                for arg in "$@"; do
                    if [[ $arg == *text/event-stream* ]]; then
                        command curl --max-time 3 -w '%{stderr}README-STATUS %{http_code}\n' "$@" || [[ $? == 28 ]]
                        return
                    fi
                done
                command curl --max-time 60 -w '%{stderr}README-STATUS %{http_code}\n' "$@"
            }
            pg_dump() { head -c 300000 /dev/urandom; }

            """#
        for (index, block) in blocks.enumerated() {
            var text = block
            for (original, replacement) in substitutions { text = text.replacingOccurrences(of: original, with: replacement) }
            script += "echo 'README-BLOCK \(index + 1)' >&2\n\(text)\necho >&2\n"
        }
        return script
    }

    /// Statuses of 400 or more (or none: 000) and task errors that the block they came from does not
    /// announce (an announced status is written in the block, e.g. `→ 422` or `(409)`).
    static func unannouncedFaults(blocks: [String], output: String, errors: String) -> [String] {
        var faults: [String] = []
        var block = 0
        for line in errors.split(separator: "\n") {
            if line.hasPrefix("README-BLOCK "), let number = Int(line.dropFirst("README-BLOCK ".count)) {
                block = number
            } else if line.hasPrefix("README-STATUS "), let status = Int(line.dropFirst("README-STATUS ".count)) {
                let text = block > 0 && block <= blocks.count ? blocks[block - 1] : ""
                if status == 0 || (status >= 400 && !text.contains(String(status))) {
                    faults.append("block \(block): status \(status) that the README does not announce:\n\(text)")
                }
            }
        }
        let compact = output.replacingOccurrences(of: " ", with: "")
        if compact.contains(#""error":{"#), !blocks.contains(where: { $0.contains(#""error": {"#) }) {
            faults.append("a task printed with an error, which no block announces")
        }
        return faults
    }
}
