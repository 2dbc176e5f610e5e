import Foundation
public import Logging
import TransferModels

/// What runs on a `CurlMultiLoop`: the owner of its transfers (the engine's scheduler, the webhook
/// sender). Every method is called on the loop's thread, which is the only one that touches the multi
/// and its easy handles.
public protocol CurlMultiLoopDriver: AnyObject, SendableMetatype {
    associatedtype Command: Sendable

    /// A command sent with `CurlMultiLoop.send(_:)`.
    func handle(_ command: Command, multi: CurlMultiHandle)
    /// True once the loop should end (asked after each batch of commands).
    var isFinished: Bool { get }
    /// Before each `perform`: start what waits for a slot.
    func willPerform(multi: CurlMultiHandle)
    /// A transfer ended with `result`; `easy` is still in the multi (remove it, reuse or drop it).
    func transferEnded(_ easy: CurlEasyHandle, result: CurlResult, multi: CurlMultiHandle)
    /// How long the loop may sleep in `poll` for activity; nil: go round again at once.
    func pollTimeout(endedTransfers: Int, multi: CurlMultiHandle) -> Duration?
    /// The loop ends: let go of every easy handle (the multi is closed right after).
    func loopWillEnd(multi: CurlMultiHandle)
}

/// One thread that owns a `CURLM` and every `CURL` in it, and repeats commands → perform → info_read →
/// poll. Other threads only append commands to the locked inbox and wake the loop (`curl_multi_wakeup`),
/// so no libcurl handle is ever touched from two threads.
///
/// `@unchecked Sendable`: `inbox` and `whenEnded` are locked, `multi.wakeUp()` is thread-safe; the driver
/// and the multi are used only on `thread` once `start()` ran.
public final class CurlMultiLoop<Driver: CurlMultiLoopDriver>: @unchecked Sendable {
    private let name: String
    private let driver: Driver
    private let multi: CurlMultiHandle
    private let logger: Logger
    private let inbox = LockedBox<[Driver.Command]>([])
    private let whenEnded = LockedBox<(@Sendable () -> Void)?>(nil)
    private let running = LockedBox(false)

    /// Whether the loop's thread is going round (from its first turn until the driver finished).
    public var isRunning: Bool { running.withLock { $0 } }

    /// - Parameter configure: sets the multi's options before any transfer.
    public init(
        name: String, driver: Driver, logger: Logger, configure: (CurlMultiHandle) throws(CurlError) -> Void = { _ in }
    ) throws(CurlError) {
        self.name = name
        self.driver = driver
        self.logger = logger
        self.multi = try CurlMultiHandle()
        do {
            try configure(multi)
        } catch {
            multi.close()
            throw error
        }
    }

    public func start() {
        ServiceThread.start(name: name) { [self] in run() }
    }

    /// Queues a command for the driver and wakes the loop, if no command queued before it has already: the
    /// loop takes the whole inbox after each wake-up, so one wake-up serves every command queued until then
    /// (a batch of a hundred creations wrote to libcurl's wake-up socket a hundred times, and woke the
    /// loop's thread as often).
    public func send(_ command: Driver.Command) {
        let wasEmpty = inbox.withLock { commands in
            defer { commands.append(command) }
            return commands.isEmpty
        }
        if wasEmpty { multi.wakeUp() }
    }

    /// Sends `command` (one that makes the driver finish) and returns once the loop has ended and the
    /// multi is closed.
    public func stop(with command: Driver.Command) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenEnded.withLock { $0 = { continuation.resume() } }
            send(command)
        }
    }

    private func run() {
        running.withLock { $0 = true }
        while true {
            for command in inbox.withLock({ commands in
                defer { commands.removeAll() }
                return commands
            }) {
                driver.handle(command, multi: multi)
            }
            if driver.isFinished { break }
            driver.willPerform(multi: multi)
            do {
                _ = try multi.perform()
                let ended = multi.endedTransfers()
                for (easy, result) in ended { driver.transferEnded(easy, result: result, multi: multi) }
                guard let timeout = driver.pollTimeout(endedTransfers: ended.count, multi: multi) else { continue }
                try multi.poll(timeoutMilliseconds: Self.milliseconds(timeout))
            } catch {
                logger.error("curl multi loop error", metadata: ["loop": "\(name)", "error": "\(error)"])
            }
        }
        running.withLock { $0 = false }
        driver.loopWillEnd(multi: multi)
        multi.close()
        whenEnded.withLock { $0 }?()
    }

    /// A poll timeout in whole milliseconds, rounded up (a deadline 0.4 ms away must not spin), 0...1000.
    static func milliseconds(_ duration: Duration) -> Int32 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(max(1, min(1000, milliseconds)))
    }
}
