import Curl
import Foundation
import SessionTasks
import TransferEngine

extension ServiceConfiguration {
    /// The protocols `URLSESSIOND_EXTRA_PROTOCOLS` may add to http and https, each only when the linked
    /// libcurl lists it (`curl_version_info`): nothing else reads from a URL the way a URLSession task does.
    static let optionalProtocols = ["ftp", "ftps", "file"]

    /// `URLSESSIOND_EXTRA_PROTOCOLS` and, with `file` among them, the `URLSESSIOND_FILE_ROOT` it requires.
    mutating func configureProtocols(_ env: Environment, libcurlProtocols: Set<String> = SafetyBaseline.libcurlProtocols) throws {
        if let text = env["URLSESSIOND_EXTRA_PROTOCOLS"] {
            engine.extraProtocols = try Self.parseExtraProtocols(text, libcurlProtocols: libcurlProtocols)
        }
        if let directory = env["URLSESSIOND_FILE_ROOT"] {
            do {
                fileRoot = try FileRoot(directory: directory)
            } catch {
                throw ConfigurationError(setting: "URLSESSIOND_FILE_ROOT", detail: error.description)
            }
        }
        if engine.extraProtocols.contains("file"), fileRoot == nil {
            throw ConfigurationError(
                setting: "URLSESSIOND_FILE_ROOT",
                detail: "is required when URLSESSIOND_EXTRA_PROTOCOLS lists file: the directory file: URLs may read from")
        }
    }

    /// `ftp,file` → `["ftp", "file"]`: names without case, each once; empty entries are skipped.
    static func parseExtraProtocols(_ text: String, libcurlProtocols: Set<String>) throws -> [String] {
        let allowed = optionalProtocols.filter(libcurlProtocols.contains)
        let allowedText = allowed.isEmpty ? "none (this libcurl transfers with none of ftp, ftps, file)" : allowed.joined(separator: ", ")
        var names: [String] = []
        for entry in text.split(separator: ",") {
            let name = entry.trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { continue }
            guard allowed.contains(name) else {
                let shown = String(
                    name.unicodeScalars.prefix(32).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
                let reason =
                    if optionalProtocols.contains(name) {
                        "libcurl \(SafetyBaseline.libcurlVersion) does not list it among the protocols it transfers with"
                    } else if name == "http" || name == "https" {
                        "http and https are always on"
                    } else if libcurlProtocols.contains(name) {
                        "tasks may not use it"
                    } else {
                        "libcurl \(SafetyBaseline.libcurlVersion) has no such protocol"
                    }
                throw ConfigurationError(
                    setting: "URLSESSIOND_EXTRA_PROTOCOLS", detail: "\"\(shown)\" is not allowed (\(reason)); allowed: \(allowedText)")
            }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}
