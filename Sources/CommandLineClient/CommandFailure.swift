import Foundation
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An error as the command line reports it: one line, and the exit status that says which kind it is.
struct CommandFailure: Error {
    var status: ExitStatus
    var message: String

    /// `error` from talking to the service before any transfer started: the service, not the origin,
    /// is the problem.
    static func reachingService(_ error: any Error, at url: URL) -> Self {
        if let problem = error as? RemoteServiceError { return .init(problem) }
        return .init(status: .serviceUnavailable, message: "cannot reach urlsessiond at \(url.absoluteString): \(describe(error))")
    }

    /// `error` from a transfer: a `URLError` is the origin's or the network's, as the service reports it.
    static func transfer(_ error: any Error, interrupted: Bool) -> Self {
        if let urlError = error as? URLError {
            if interrupted && urlError.code == .cancelled {
                return .init(status: .interrupted, message: "interrupted: the task was cancelled")
            }
            return .init(status: .transferFailed, message: "the transfer failed: \(describe(urlError))")
        }
        if let problem = error as? RemoteServiceError { return .init(problem) }
        if interrupted || error is CancellationError { return .init(status: .interrupted, message: "interrupted: the task was cancelled") }
        return .init(status: .transferFailed, message: "the transfer failed: \(describe(error))")
    }

    /// A problem the service answered: a refused token is 77, the service's own failure 69, the rest 1.
    init(_ problem: RemoteServiceError) {
        switch problem.status {
        case 401, 403: self.init(status: .notPermitted, message: "\(problem) — check URLSESSIOND_TOKEN")
        case 500...: self.init(status: .serviceUnavailable, message: problem.description)
        default: self.init(status: .transferFailed, message: problem.description)
        }
    }

    init(status: ExitStatus, message: String) {
        self.status = status
        self.message = message
    }

    /// `The request timed out. (NSURLErrorDomain -1001)`, or the error's own description.
    static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return "\(error)" }
        var text = urlError.localizedDescription
        if let reason = urlError.userInfo["reason"] as? String { text += " [\(reason)]" }
        return text + " (NSURLErrorDomain \(urlError.code.rawValue))"
    }
}
