import Dispatch
import Foundation

/// Ctrl-C while a transfer runs: the first cancels the task on the service (so nothing is left running
/// there for a command that is gone) and lets the command end with status 130; a second one, if the
/// cancel hangs, kills the process as usual.
final class InterruptSignal {
    private let source: any DispatchSourceSignal

    init(onInterrupt: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)  // the dispatch source, not the default action, handles the first one
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            signal(SIGINT, SIG_DFL)
            onInterrupt()
        }
        source.resume()
    }

    /// Gives Ctrl-C back its default action.
    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
