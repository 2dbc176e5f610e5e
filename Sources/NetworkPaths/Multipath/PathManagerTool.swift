import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's Multipath TCP path manager through iproute2 (`ip mptcp endpoint …`, `ip mptcp limits …`,
/// the `mptcp_pm` generic-netlink family underneath), for the network namespace the service runs in.
/// Changing it needs `CAP_NET_ADMIN`; reading it does not.
struct PathManagerTool: Sendable {
    /// `ip`: the first of the usual places that is executable; nil when iproute2 is missing.
    let ip: URL?

    init() {
        let candidates = ["/usr/sbin/ip", "/usr/bin/ip", "/sbin/ip", "/bin/ip"]
        self.ip = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }

    /// Whether this process holds `CAP_NET_ADMIN` (bit 12 of `CapEff` in /proc/self/status).
    static func hasNetworkAdministration() -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << 12) != 0
    }

    /// `ip -j mptcp endpoint show`.
    func endpoints() async throws -> [MultipathEndpointPlan.Installed] {
        let output = try await run(["-j", "mptcp", "endpoint", "show"])
        guard let list = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] else {
            throw PathManagerError("unexpected `ip -j mptcp endpoint show` output: \(output)")
        }
        return list.compactMap { entry in
            guard let id = entry["id"] as? Int, let address = entry["address"] as? String else { return nil }
            return MultipathEndpointPlan.Installed(
                id: id, address: address, device: entry["dev"] as? String, isSubflow: entry["subflow"] as? Bool ?? false,
                isBackup: entry["backup"] as? Bool ?? false)
        }
    }

    /// `ip mptcp limits show` (`add_addr_accepted 0 subflows 2`; iproute2 6.1 has no JSON for it).
    func limits() async throws -> (subflows: Int, addressesAccepted: Int) {
        let words = try await run(["mptcp", "limits", "show"]).split(whereSeparator: \.isWhitespace)
        func value(_ name: Substring) -> Int? {
            words.firstIndex(of: name).flatMap { $0 + 1 < words.count ? Int(words[$0 + 1]) : nil }
        }
        guard let subflows = value("subflows"), let accepted = value("add_addr_accepted") else {
            throw PathManagerError("unexpected `ip mptcp limits show` output: \(words.joined(separator: " "))")
        }
        return (subflows, accepted)
    }

    func setSubflowLimit(_ limit: Int) async throws {
        try await run(["mptcp", "limits", "set", "subflows", "\(limit)"])
    }

    func apply(_ step: MultipathEndpointPlan.Step) async throws {
        switch step {
        case .add(let endpoint, let id):
            let device = endpoint.device.map { ["dev", $0] } ?? []
            try await run(
                ["mptcp", "endpoint", "add", endpoint.address] + device + ["id", "\(id)", "subflow"] + (endpoint.isBackup ? ["backup"] : [])
            )
        case .setBackup(let id, let backup):
            try await run(["mptcp", "endpoint", "change", "id", "\(id)", backup ? "backup" : "nobackup"])
        case .delete(let id):
            try await run(["mptcp", "endpoint", "delete", "id", "\(id)"])
        }
    }

    /// Runs `ip arguments` to its end (at most 5 s, then killed) and returns its stdout; stdout and stderr go
    /// to files so a full pipe can never block it. Polls every 2 ms without holding a thread.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        guard let ip else { throw PathManagerError("no `ip` (iproute2) in /usr/sbin, /usr/bin, /sbin or /bin") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("urlsessiond-ip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (outputURL, errorURL) = (scratch.appendingPathComponent("out"), scratch.appendingPathComponent("err"))
        for url in [outputURL, errorURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        let process = Process()
        process.executableURL = ip
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let (output, errorOutput) = (try FileHandle(forWritingTo: outputURL), try FileHandle(forWritingTo: errorURL))
        (process.standardOutput, process.standardError) = (output, errorOutput)
        do {
            defer {
                try? output.close()  // the child holds its own duplicates
                try? errorOutput.close()
            }
            try process.run()
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning {  // bounded by the deadline
            if ContinuousClock.now > deadline {
                _ = kill(process.processIdentifier, SIGKILL)
                throw PathManagerError("ip \(arguments.joined(separator: " ")) did not finish within 5 s")
            }
            if Task.isCancelled {
                usleep(2_000)  // the endpoints are removed at shutdown, in a cancelled task: still wait for `ip`
            } else {
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw PathManagerError(
                "ip \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): "
                    + errors.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }
}

/// The path manager could not be read or changed; the message has `ip`'s stderr.
struct PathManagerError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
