import Foundation
import URLSessionRemote

/// Which service the command line talks to and with which token.
///
/// `URLSESSIOND_URL` (default `http://127.0.0.1:8080`, where `make run` serves) and `URLSESSIOND_TOKEN`.
/// Without a token in the environment, the token file the service writes on its first start without
/// configured tokens is read (`URLSESSIOND_TOKEN_FILE`, default `./data/token`), so that right after
/// `make run` in the same directory `urlsessiond get URL` needs nothing else.
enum ServiceAddress {
    static func connection(environment: [String: String] = ProcessInfo.processInfo.environment) -> RemoteConnection {
        var connection = RemoteConnection.environment(environment)
        if environment["URLSESSIOND_TOKEN"]?.isEmpty ?? true {
            let file = environment["URLSESSIOND_TOKEN_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "data/token"
            if let token = try? String(contentsOfFile: file, encoding: .utf8) {
                connection.token = token.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return connection
    }

    /// Lines for `--help`: where the address and the token come from.
    static let helpText = """
        The service is URLSESSIOND_URL (default http://127.0.0.1:8080); the token is URLSESSIOND_TOKEN, or \
        the file URLSESSIOND_TOKEN_FILE (default ./data/token, which the service writes on its first start \
        without tokens).
        """
}
