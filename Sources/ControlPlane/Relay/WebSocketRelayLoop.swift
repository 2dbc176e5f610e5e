import Foundation
import SessionTasks
import TransferModels

/// The relays' thread: one `poll` over every relayed caller's socket and a wake-up pipe, as the engine's
/// `WebSocketLoop` does for origins. MHD's threads only hand sockets over (`start`), and the channels only
/// wake it (a message arrived, a send was written, a connection ended): no relay's I/O ever runs on an MHD
/// thread, and a slow caller holds up no other.
///
/// The thread runs while there are relays (it starts with the first and ends after the last), so a
/// service that relays nothing has no thread for it.
///
/// `@unchecked Sendable`: off the loop thread only `start`, `wake` and `shutDown` are called (the inbox
/// is locked, a pipe write is thread-safe); `relays` is touched on the loop thread alone.
final class WebSocketRelayLoop: @unchecked Sendable {
    private struct Inbox {
        var started: [WebSocketRelay] = []
        var isRunning = false
        var isShuttingDown = false
    }

    private let inbox = LockedBox(Inbox())
    /// Polled beside the sockets; `wake` wakes it.
    private let wakePipe = WakePipe()
    private var relays: [ObjectIdentifier: WebSocketRelay] = [:]

    /// Relays `connection` (just upgraded, on an MHD thread) to `channel`, whose buffer the relay already
    /// holds (`attachRelay(wake:)` with this loop's `wake`).
    func start(_ connection: UpgradedConnection, channel: TaskWebSocket, slot: StreamSlot) {
        let relay = WebSocketRelay(connection: connection, channel: channel, slot: slot) { [weak self] in self?.wake() }
        let startThread = inbox.withLock { inbox in
            inbox.started.append(relay)
            defer { inbox.isRunning = true }
            return !inbox.isRunning
        }
        if startThread {
            ServiceThread.start(name: "urlsessiond-relays") { [self] in run() }
        }
        wake()
    }

    func wake() {
        wakePipe.wake()
    }

    /// Graceful shutdown: every relay's caller gets a going-away close frame, and relays started later
    /// get it at once; each socket goes back to MHD once its close is written (or the caller's time is up).
    func shutDown() {
        inbox.withLock { $0.isShuttingDown = true }
        wake()
    }

    private func run() {
        while true {
            let (started, isShuttingDown) = inbox.withLock { inbox in
                defer { inbox.started = [] }
                return (inbox.started, inbox.isShuttingDown)
            }
            let now = ContinuousClock.now
            for relay in started { relays[ObjectIdentifier(relay)] = relay }
            if isShuttingDown { for relay in relays.values { relay.shutDown(now: now) } }
            for relay in relays.values { relay.service(hangUp: false, now: now) }
            finishEnded()
            let ended = inbox.withLock { inbox in
                if relays.isEmpty && inbox.started.isEmpty { inbox.isRunning = false }
                return !inbox.isRunning
            }
            if ended { return }
            waitForEvents()
        }
    }

    /// Polls the sockets and the pipe until something happens or the nearest deadline (at most a second),
    /// and services the relays whose sockets are ready.
    private func waitForEvents() {
        var descriptors = [pollfd(fd: wakePipe.descriptor, events: Int16(POLLIN), revents: 0)]
        let polled = Array(relays.values)
        for relay in polled { descriptors.append(pollfd(fd: relay.connection.socket, events: relay.pollEvents, revents: 0)) }
        _ = poll(&descriptors, nfds_t(descriptors.count), pollTimeout())
        if descriptors[0].revents != 0 { wakePipe.drain() }
        let now = ContinuousClock.now
        for (index, relay) in polled.enumerated() where descriptors[index + 1].revents != 0 {
            let revents = Int32(descriptors[index + 1].revents)
            relay.service(hangUp: revents & (POLLERR | POLLHUP | POLLNVAL) != 0, now: now)
        }
        finishEnded()
    }

    /// Hands finished relays' sockets back to MHD and their buffers back to the API.
    private func finishEnded() {
        for (key, relay) in relays where relay.isFinished {
            relays[key] = nil
            relay.channel.detachRelay()
            relay.connection.close()
            relay.slot.release()
        }
    }

    private func pollTimeout() -> Int32 {
        let now = ContinuousClock.now
        var nearest = now + .seconds(1)
        for relay in relays.values { if let deadline = relay.deadline, deadline < nearest { nearest = deadline } }
        let wait = nearest - now
        return Int32(max(0, min(1000, wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)))
    }
}
