internal import Dispatch
internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The accept loop of TestSupport's loopback servers (the fixture origin, the webhook receiver): one
/// thread per admitted connection, until the wake pipe says stop.
enum AcceptLoop {
    /// Runs on the calling thread until `wake` is readable, then closes `listener`.
    ///
    /// - Parameters:
    ///   - admit: counts the connection and says whether it may be served (not stopped, under the limit).
    ///   - release: called when a served connection's thread ends (its socket already closed).
    ///   - serve: serves one connection; the socket closes when it returns.
    static func run(
        listener: Int32, wake: FixtureWakePipe, threads: DispatchGroup, name: String,
        admit: () -> Bool, release: @escaping @Sendable () -> Void,
        serve: @escaping @Sendable (FixtureSocket, Int) -> Void
    ) {
        defer { close(listener) }
        var nextID = 0
        while true {  // bounded: each poll waits at most 1 s, and stop() makes the wake pipe readable
            var entries = [
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&entries, 2, 1000)
            if entries[1].revents != 0 { return }
            guard ready > 0, entries[0].revents != 0 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }  // EAGAIN (the peer left), EMFILE, ECONNABORTED: keep listening
            FixtureOrigin.configure(fd)
            nextID += 1
            guard admit() else {
                close(fd)
                continue
            }
            let id = nextID
            threads.enter()  // before this thread can leave, so stop() never sees a zero count too early
            let wakeFD = wake.readFD
            let thread = Thread {
                defer {
                    release()
                    threads.leave()
                }
                serve(FixtureSocket(fd: fd, wakeFD: wakeFD), id)
            }
            thread.name = "\(name).connection.\(id)"
            thread.start()
        }
    }
}

/// The connection counts of a TestSupport server's state.
protocol ConnectionCounting {
    var accepted: Int { get set }
    var open: Int { get set }
    var stopped: Bool { get }
}

extension ConnectionCounting {
    /// Counts an accepted connection; true when it may be served (not stopped, under the limit).
    mutating func admit() -> Bool {
        accepted += 1
        guard !stopped, open < FixtureOrigin.maximumConnections else { return false }
        open += 1
        return true
    }
}
