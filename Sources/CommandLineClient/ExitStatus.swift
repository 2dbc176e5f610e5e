/// What the command line's exit status says, so that a script can tell a missing file from a down service.
///
/// The numbers are those of `sysexits.h` where one fits, and curl's `22` for an HTTP error status, which
/// is what `curl --fail` users already test for.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// The transfer completed and the file or listing is complete.
    case success = 0
    /// The transfer failed: the error (an `NSURLErrorDomain` code) is printed.
    case transferFailed = 1
    /// The origin answered with an HTTP status of 400 or more; nothing is kept.
    case httpError = 22
    /// The command line itself is wrong (ArgumentParser's own code for a validation error).
    case usage = 64
    /// The service could not be reached at `URLSESSIOND_URL`, or answered with a 5xx.
    case serviceUnavailable = 69
    /// The output file could not be created or written.
    case cannotCreateOutput = 73
    /// The service refused the token (`URLSESSIOND_TOKEN`), or the task is not this tenant's.
    case notPermitted = 77
    /// Interrupted (Ctrl-C): the task was cancelled on the service.
    case interrupted = 130

    /// One line per status for `--help`.
    public static var helpText: String {
        """
        Exit status: 0 complete; 1 the transfer failed; 22 the origin answered 400 or more; 64 usage; \
        69 the service is unreachable; 73 the output cannot be written; 77 the token is refused; 130 interrupted.
        """
    }
}
