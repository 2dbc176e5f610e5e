public import ControlPlane
import Foundation

/// A configuration value that could not be read, naming the setting.
public struct ConfigurationError: Error, CustomStringConvertible {
    public var setting: String
    public var detail: String
    public var description: String { "\(setting): \(detail)" }

    public init(setting: String, detail: String) {
        self.setting = setting
        self.detail = detail
    }
}

extension ServiceConfiguration {
    /// Configured tokens (`URLSESSIOND_TOKENS`, `URLSESSIOND_METRICS_TOKEN`) have at least this many
    /// characters: a short one can be guessed.
    public static let minimumTokenLength = 16

    /// Parses `token:tenant:role,...` (role `admin` or `user`). No message quotes a token.
    public static func parseTokens(_ text: String, setting: String = "URLSESSIOND_TOKENS") throws -> [String: Principal] {
        var tokens: [String: Principal] = [:]
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, let role = Principal.Role(rawValue: parts[2]) else {
                throw ConfigurationError(setting: setting, detail: "each entry must be token:tenant:role with role admin or user")
            }
            guard parts[0].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw ConfigurationError(setting: setting, detail: "tokens must be visible ASCII")
            }
            guard parts[0].utf8.count >= minimumTokenLength else {
                throw ConfigurationError(
                    setting: setting,
                    detail: "the token of entry \(tokens.count + 1) (tenant \(parts[1]), role \(parts[2])) is shorter than "
                        + "\(minimumTokenLength) characters; use at least \(minimumTokenLength) random characters")
            }
            guard tokens[parts[0]] == nil else {
                throw ConfigurationError(setting: setting, detail: "a token appears twice")
            }
            tokens[parts[0]] = Principal(tenant: parts[1], role: role)
        }
        return tokens
    }

    /// `URLSESSIOND_METRICS_TOKEN` / `--metrics-token`: visible ASCII, at least ``minimumTokenLength``
    /// characters. The message never quotes it.
    static func checkMetricsToken(_ token: String) throws -> String {
        guard token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ConfigurationError(setting: "URLSESSIOND_METRICS_TOKEN", detail: "the token must be visible ASCII")
        }
        guard token.utf8.count >= minimumTokenLength else {
            throw ConfigurationError(
                setting: "URLSESSIOND_METRICS_TOKEN",
                detail: "the token is shorter than \(minimumTokenLength) characters; use at least \(minimumTokenLength) random characters")
        }
        return token
    }
}
