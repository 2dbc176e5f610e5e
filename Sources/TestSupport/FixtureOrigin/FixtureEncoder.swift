internal import Foundation

/// A body compressed with one content coding, and the digest of what it decodes to.
struct FixtureEncodedBody: Sendable {
    var encoded: [UInt8]
    var decodedLength: Int
    var decodedSHA256: String
}

/// Compresses ``FixtureOrigin/text(count:)`` with the Debian command-line tools, once per (coding, size).
///
/// Real tools rather than a Swift encoder, so the bytes are what real servers send and the decoder under test
/// is checked against an independent implementation. `deflate` is the zlib stream (RFC 9110 §8.4.1.2), which
/// no stock CLI writes, so Python's `zlib` makes it.
final class FixtureEncoder: Sendable {
    /// The commands per coding: executable name and arguments, reading stdin and writing stdout.
    static let commands: [String: (tool: String, arguments: [String])] = [
        "gzip": ("gzip", ["-c", "-n"]),
        "br": ("brotli", ["-c"]),
        "zstd": ("zstd", ["-c", "-q"]),
        "deflate": (
            "python3", ["-c", "import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))"]
        ),
    ]

    private let cache = Locked([String: Result<FixtureEncodedBody, FixtureEncodingFailure>]())

    /// The body for `coding` and `size`, from the cache or compressed now (outside the lock, so other
    /// requests are not held up; two first requests may both compress, with the same result).
    func body(coding: String, size: Int) -> Result<FixtureEncodedBody, FixtureEncodingFailure> {
        let key = "\(coding)/\(size)"
        if let cached = self.cache.withLock({ $0[key] }) { return cached }
        let result = Self.compress(coding: coding, size: size)
        self.cache.withLock { $0[key] = result }
        return result
    }

    private static func compress(coding: String, size: Int) -> Result<FixtureEncodedBody, FixtureEncodingFailure> {
        guard let command = Self.commands[coding] else {
            return .failure(FixtureEncodingFailure(message: "unknown coding \(coding); use gzip, deflate, br or zstd"))
        }
        guard let executable = Self.locate(command.tool) else {
            return .failure(
                FixtureEncodingFailure(
                    message: "the `\(command.tool)` command is missing: install the Debian package that provides it "
                        + "(the project's `make test` installs it with TEST_PACKAGES)"))
        }
        let text = FixtureBytes.text(count: size)
        do {
            let directory = try TemporaryDirectory.make(prefix: "fixture-origin-encode")
            defer { directory.remove() }
            let input = directory.appending("input")
            let output = directory.appending("output")
            try Data(text).write(to: input)
            guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
                return .failure(FixtureEncodingFailure(message: "cannot create \(output.path)"))
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = command.arguments
            process.standardInput = try FileHandle(forReadingFrom: input)
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                return .failure(
                    FixtureEncodingFailure(message: "\(command.tool) failed with status \(process.terminationStatus)"))
            }
            let encoded = try [UInt8](Data(contentsOf: output))
            return .success(
                FixtureEncodedBody(
                    encoded: encoded, decodedLength: text.count, decodedSHA256: FixtureSHA256.hex(of: text)))
        } catch {
            return .failure(FixtureEncodingFailure(message: "running \(command.tool) failed: \(error)"))
        }
    }

    /// The path of executable `name` in `PATH` (or the usual Debian directories when `PATH` is unset).
    private static func locate(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Why `/encoded` could not produce a body; the route answers 500 with the message.
struct FixtureEncodingFailure: Error, Sendable {
    var message: String
}

extension FixtureRouter {
    /// `/encoded/{gzip|deflate|br|zstd}?size=N`: N bytes of text (default 4096) in that coding, with
    /// `X-Decoded-Length` and `X-Decoded-SHA256` describing the decoded bytes.
    static func encoded(
        _ request: FixtureRequest, coding: String, on socket: FixtureSocket, core: FixtureOriginCore
    ) throws(FixtureSocketError) -> FixtureDisposition {
        let size = request.integer("size", default: 4096)
        guard (0...(64 << 20)).contains(size) else {
            return try socket.send(.text(400, "size must be 0...64 MiB\n"), to: request)
        }
        switch core.encoder.body(coding: coding, size: size) {
        case .success(let body):
            let response = FixtureResponse(
                status: 200,
                headers: [
                    ("Content-Type", "text/plain; charset=utf-8"), ("Content-Encoding", coding),
                    ("Vary", "Accept-Encoding"), ("X-Decoded-Length", "\(body.decodedLength)"),
                    ("X-Decoded-SHA256", body.decodedSHA256),
                ],
                body: body.encoded)
            return try socket.send(response, to: request)
        case .failure(let failure):
            return try socket.send(.text(500, "fixture origin: \(failure.message)\n"), to: request)
        }
    }

    /// `/unknown-coding?contentEncoding=&transferEncoding=&size=N`: N bytes of text (default 4096) sent as they are,
    /// labelled with those `Content-Encoding` and `Transfer-Encoding` values (a coding nobody can decode, or a known
    /// one beside it). A transfer coding list ending in `chunked` frames the body in chunks; any other leaves it
    /// delimited by the close (RFC 9112 §6.3); without one it has a `Content-Length`.
    static func unknownCoding(_ request: FixtureRequest, on socket: FixtureSocket) throws(FixtureSocketError) -> FixtureDisposition {
        let body = FixtureBytes.text(count: min(max(0, request.integer("size", default: 4096)), 64 << 20))
        var headers = [("Content-Type", "application/octet-stream")]
        if let coding = request.parameter("contentEncoding") { headers.append(("Content-Encoding", coding)) }
        guard let transfer = request.parameter("transferEncoding") else {
            return try socket.send(FixtureResponse(status: 200, headers: headers, body: body), to: request, closing: true)
        }
        headers.append(("Transfer-Encoding", transfer))
        let chunked = transfer.lowercased().hasSuffix("chunked")
        var bytes = FixtureResponse(status: 200, headers: headers).head(closing: true)
        if chunked {
            if !body.isEmpty { bytes += Array("\(String(body.count, radix: 16))\r\n".utf8) + body + [0x0D, 0x0A] }
            bytes += Array("0\r\n\r\n".utf8)
        } else {
            bytes += body
        }
        try socket.write(bytes)
        return .close
    }
}
