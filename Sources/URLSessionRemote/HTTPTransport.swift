internal import CCurl
internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

/// The client's HTTP: every call to the service (JSON calls, blob uploads, file downloads, the event stream,
/// a task's body) is a libcurl transfer on the thread of one of two transports (`shared`, `streams`).
///
/// Why not URLSession: on Linux, FoundationNetworking keeps a libdispatch write source on a connection's
/// socket once libcurl has asked for writability (to send the request) and never cancels it when libcurl
/// asks for reads only, so every call waiting for its answer wakes the loop at once, again and again: one
/// open event stream or long-poll cost a whole core (`strace -c`: 3,500 `poll`/`write`/`epoll_ctl` rounds a
/// second with nothing to read). Two `urlsessiond watch` processes and a `get` starved a two-core machine.
/// Here the thread sleeps in `curl_multi_poll` until a socket is ready, a timer of libcurl's is due, or
/// a call is started or cancelled (`curl_multi_wakeup`).
///
/// `@unchecked Sendable`: `inbox` is locked; `multi` and `running` are touched only on the loop's thread;
/// `curl_multi_wakeup` may be called from any thread.
final class HTTPTransport: @unchecked Sendable {
    /// The calls to the service, at most 8 connections to a host at once (a burst of calls waits for one,
    /// as it did with URLSession's `httpMaximumConnectionsPerHost`). Started on first use, never stopped.
    static let shared = HTTPTransport(name: "URLSessionRemote.calls", connectionsPerHost: 8)
    /// The long-lived answers (event streams, task bodies), one connection each without a limit, so that
    /// they never hold the calls' connections nor wait for each other.
    static let streams = HTTPTransport(name: "URLSessionRemote.streams", connectionsPerHost: 0)

    private let multi: UnsafeMutableRawPointer
    private let inbox = Locked<[Command]>([])
    /// The calls in `multi`, by their easy handle.
    private var running: [UnsafeMutableRawPointer: HTTPCall] = [:]

    private enum Command {
        case start(HTTPCall)
        case cancel(HTTPCall)
    }

    /// - Parameter connectionsPerHost: 0 for no limit.
    private init(name: String, connectionsPerHost: Int) {
        _ = Self.globalInitialization
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.multi = multi
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost)
        let thread = Thread { [self] in self.run() }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// `curl_global_init`, once per process, before the first handle.
    private static let globalInitialization: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Starts `call`; its handlers are called on the transport's thread.
    func start(_ call: HTTPCall) {
        send(.start(call))
    }

    /// Ends `call` with `URLError(.cancelled)` unless it has ended already; a call cancelled before it
    /// started never starts.
    func cancel(_ call: HTTPCall) {
        call.markCancelled()
        send(.cancel(call))
    }

    private func send(_ command: Command) {
        inbox.withLock { $0.append(command) }
        curl_multi_wakeup(multi)
    }

    /// The loop: commands, then `curl_multi_perform`, then the ended transfers, then sleep until something
    /// happens (at most a minute; sooner when one of libcurl's timers is due).
    private func run() {
        while true {
            let commands = inbox.withLock { commands in
                defer { commands = [] }
                return commands
            }
            for command in commands {
                switch command {
                case .start(let call): begin(call)
                case .cancel(let call): end(call, with: .cancelledByCaller)
                }
            }
            var active: Int32 = 0
            curl_multi_perform(multi, &active)
            collectEnded()
            curl_multi_poll(multi, nil, 0, 60_000, nil)
        }
    }

    private func begin(_ call: HTTPCall) {
        guard !call.isCancelled else { return call.complete(.cancelledByCaller) }
        guard let easy = call.makeHandle() else { return }  // it failed already (a body file that cannot be opened)
        running[easy] = call
        let added = curl_multi_add_handle(multi, easy)
        if added != CURLM_OK { end(call, with: .finished(CURLE_OUT_OF_MEMORY)) }
    }

    private func collectEnded() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let call = running[easy] else {
                continue
            }
            end(call, with: .finished(message.pointee.data.result))
        }
    }

    /// Takes `call` out of the multi, if it is still there, and completes it.
    private func end(_ call: HTTPCall, with outcome: HTTPCall.Outcome) {
        guard let easy = call.handle, running.removeValue(forKey: easy) != nil else { return }
        curl_multi_remove_handle(multi, easy)
        call.complete(outcome)
    }
}
