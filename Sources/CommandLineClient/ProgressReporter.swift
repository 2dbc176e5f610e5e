import Foundation
import URLSessionRemote

/// The download's delegate: each `didWriteData` moves the progress line.
///
/// The service sends progress at most every `progressInterval` (the session's delegate setting), so the
/// line moves at that pace; the rate is taken over the last seconds (`ThroughputMeter`), not since the start.
final class ProgressReporter: RemoteURLSessionDelegate, @unchecked Sendable {
    // Delegate methods are called one at a time, but from the session's loop, not the caller's task.
    private let lock = NSLock()
    private var meter = ThroughputMeter()
    private var output: TerminalOutput
    private var last: (received: Int64, expected: Int64?) = (0, nil)
    private let start = ContinuousClock.now

    init(output: TerminalOutput) {
        self.output = output
    }

    func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) async {
        report(received: totalBytesWritten, expected: totalBytesExpectedToWrite > 0 ? totalBytesExpectedToWrite : nil)
    }

    func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
        expectedTotalBytes: Int64
    ) async {
        report(received: fileOffset, expected: expectedTotalBytes > 0 ? expectedTotalBytes : nil)
    }

    /// Moves the line to `received` of `expected`.
    func report(received: Int64, expected: Int64?, final: Bool = false) {
        lock.withLock {
            let now = seconds
            meter.record(bytes: received, at: now)
            last = (received, expected ?? last.expected)
            let line = ProgressLine(
                received: received, expected: last.expected, bytesPerSecond: meter.bytesPerSecond,
                secondsLeft: final ? nil : meter.secondsLeft(expected: last.expected))
            output.show(line, now: now, final: final)
        }
    }

    /// Ends the line with the final figures (a transfer's last bytes may have come with no progress event).
    func finish(received: Int64) {
        report(received: received, expected: last.expected.map { max($0, received) }, final: true)
    }

    /// Prints `message` on a line of its own below the progress line.
    func say(_ message: String) {
        lock.withLock { output.say(message) }
    }

    private var seconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
