import Certificates
import Curl
import Foundation
import TransferModels

#if canImport(Glibc)
    import Glibc
#endif

/// One stream task's connection on the connection loop: the connect-only `CurlConnection` (plain TCP, through
/// the session's proxy and path, past the egress guard), then OpenSSL on its socket once
/// `startSecureConnection` comes (`TLSClientSession`), and what the API queued for it, in order. Confined to
/// the loop thread, except while `phase` is `.connecting`: then only the connect thread touches `transport`.
///
/// States: connecting → plain → (handshaking → secure); writes, the start of TLS and the end of the write side
/// go out in the order they were asked for; reading runs beside them until the read side ends.
final class StreamLink {
    enum Phase {
        case connecting
        case plain
        /// TLS began after the plain bytes before it; nothing is read or written but the handshake.
        case handshaking(TLSClientSession)
        case secure(TLSClientSession)
    }

    /// What one turn found, for the loop to report.
    enum Event: Equatable {
        /// The peer ended its side (`streamTask.readClosed`).
        case readEnded
        /// Our write side ended (`streamTask.writeClosed`).
        case writeEnded
    }

    enum Failure: Error {
        case transport(String)
        case tls(TLSClientSession.Failure)
    }

    let job: TransferJob
    let transport: CurlConnection
    /// What libcurl connects to: `http://host:port`, connect-only (no HTTP is sent).
    let url: String
    let egress: EgressPolicy
    let channel: StreamChannel
    /// The PEM file TLS trusts: the session's bundle (the system's or the operator's, plus its anchors).
    let anchorsFile: String
    var phase = Phase.connecting
    /// What goes out, in the order the API asked, and how much of it went.
    var output = StreamOutput()
    /// No more is read: the peer's end was read, or `closeRead` came.
    var readEnded = false
    var writeEnded = false
    /// A plain `cancel()` came while connecting: the task ends cancelled once the connect thread returns.
    var cancelledWhileConnecting = false
    /// `timeoutIntervalForRequest` bounds the TLS handshake too, as it bounds the connect.
    var handshakeDeadline: ContinuousClock.Instant?
    /// The socket readiness the last turn stopped on, beyond reading (a blocked write, TLS's own needs).
    private var waitsFor: Int16 = 0
    /// The last turn stopped reading at its limit, or TLS holds decrypted bytes `poll` cannot show.
    private(set) var mayHaveMore = false
    private(set) var bytesReceived: Int64 = 0
    var bytesSent: Int64 { output.bytesSent }

    init(job: TransferJob, configuration: EngineConfiguration, commands: @escaping @Sendable (StreamCommand) -> Void) throws {
        self.job = job
        url = job.stream?.connectURL ?? job.request.url
        egress = configuration.egress
        anchorsFile = job.certificateAuthoritiesFile ?? configuration.certificateAuthorities ?? TrustBundle.systemPath
        let easy = try CurlEasyHandle()
        try Transfer.applyConnectionOptions(to: easy, job: job, url: url, configuration: configuration)
        try easy.set(.connectTimeoutMilliseconds, max(1, Int(job.timeoutIntervalForRequest * 1000)))
        transport = CurlConnection(handle: easy)
        channel = StreamChannel(id: job.id, commands: commands)
    }

    var isConnected: Bool {
        if case .connecting = phase { false } else { true }
    }

    /// What to `poll` the socket for.
    var pollEvents: Int16 {
        var events = waitsFor
        if readsNow { events |= Int16(POLLIN) }
        return events
    }

    private var readsNow: Bool {
        switch phase {
        case .plain, .secure: !readEnded && channel.acceptsBytes
        case .connecting, .handshaking: false
        }
    }

    /// Both sides ended and nothing is left to send: the task completes.
    var isFinished: Bool { readEnded && writeEnded && output.isEmpty }

    /// Sends what is queued and the socket takes, moves TLS on, and reads what arrived (at most `readLimit`).
    func pump(readLimit: Int) throws(Failure) -> [Event] {
        var events: [Event] = []
        waitsFor = 0
        mayHaveMore = false
        try flushOutput(&events)
        try readAvailable(limit: readLimit, &events)
        return events
    }

    /// Writes whose timeout passed: answered `timedOut`, and what was not sent of them is dropped.
    func expireWrites(now: ContinuousClock.Instant) {
        for token in output.expireWrites(now: now) { channel.resolveWrite(token, .timedOut) }
    }

    /// The nearest time something of this link times out.
    var nearestDeadline: ContinuousClock.Instant? {
        var deadlines = output.deadlines
        if case .handshaking = phase, let handshakeDeadline { deadlines.append(handshakeDeadline) }
        return deadlines.min()
    }

    /// Frees TLS (the socket is closed with the easy handle) and answers whatever waits.
    func close() {
        switch phase {
        case .handshaking(let tls), .secure(let tls): tls.close()
        case .connecting, .plain: break
        }
        for token in output.removeAll() { channel.resolveWrite(token, .notOpen) }
        channel.closed()
    }

    // MARK: Output

    private func flushOutput(_ events: inout [Event]) throws(Failure) {
        if case .handshaking(let tls) = phase, try !handshake(tls) { return }
        while let item = output.first {
            switch item {
            case .write(let bytes, let token, _):
                while output.written < bytes.count {
                    let offset = output.written
                    let sent = try Self.rethrown { try bytes.withUnsafeBytes { try send(UnsafeRawBufferPointer(rebasing: $0[offset...])) } }
                    guard let sent, sent > 0 else { return }
                    output.sent(sent)
                }
                output.removeFirst()
                channel.resolveWrite(token, .written)
            case .startSecureConnection:
                output.removeFirst()
                guard case .plain = phase else { continue }  // TLS already: a second call changes nothing
                let tls = try startTLS()
                phase = .handshaking(tls)
                handshakeDeadline = .now + .milliseconds(Int64(job.timeoutIntervalForRequest * 1000))
                guard try handshake(tls) else { return }
            case .closeWrite:
                if case .secure(let tls) = phase {
                    let progress: TLSClientSession.Progress
                    do { progress = try tls.shutdown() } catch { throw .tls(error) }
                    guard progress == .done else { return wait(for: progress) }
                }
                if let socket = transport.socket { _ = Glibc.shutdown(socket, Int32(SHUT_WR)) }
                output.removeFirst()
                writeEnded = true
                events.append(.writeEnded)
            }
        }
    }

    /// Sends what the connection takes of `bytes` now; nil when it takes none (the socket is waited for).
    private func send(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Int? {
        switch phase {
        case .plain:
            let sent: Int?
            do { sent = try transport.send(bytes) } catch { throw .transport(error.message) }
            if sent == nil { waitsFor |= Int16(POLLOUT) }
            return sent
        case .secure(let tls):
            let result: TLSClientSession.Transfer
            do { result = try tls.write(bytes) } catch { throw .tls(error) }
            switch result {
            case .bytes(let count): return count
            case .wantWrite: waitsFor |= Int16(POLLOUT)
            case .wantRead: waitsFor |= Int16(POLLIN)
            case .closed: throw .transport("the peer closed the connection")
            }
            return nil
        case .connecting, .handshaking:
            return nil
        }
    }

    /// OpenSSL on the socket libcurl connected. Through an HTTPS proxy that socket carries the proxy's own
    /// TLS, which only libcurl can speak: TLS cannot start there.
    private func startTLS() throws(Failure) -> TLSClientSession {
        if job.proxy?.lowercased().hasPrefix("https:") == true {
            throw .tls(.init(message: "startSecureConnection is not supported through an HTTPS proxy", trust: nil))
        }
        guard let socket = transport.socket else { throw .transport("the connection closed before TLS began") }
        let host = job.stream?.hostName ?? ""
        var settings = TLSClientSession.Settings(
            host: host, anchorsFile: anchorsFile, minimumVersion: job.tlsMinimumVersion, maximumVersion: job.tlsMaximumVersion)
        settings.pinnedPublicKeys = job.pinnedPublicKeys
        if let identity = job.credentials?.clientIdentity(host: host.lowercased(), port: job.stream?.port ?? 443) {
            settings.identity = (identity.certificateChain, identity.privateKey, identity.passphrase)
        }
        do { return try TLSClientSession(socket: socket, settings: settings) } catch { throw .tls(error) }
    }

    /// Moves the handshake on; true once it is done (the connection is then `secure`).
    private func handshake(_ tls: TLSClientSession) throws(Failure) -> Bool {
        let progress: TLSClientSession.Progress
        do { progress = try tls.handshake() } catch { throw .tls(error) }
        guard progress == .done else {
            wait(for: progress)
            return false
        }
        phase = .secure(tls)
        handshakeDeadline = nil
        return true
    }

    private func wait(for progress: TLSClientSession.Progress) {
        switch progress {
        case .wantRead: waitsFor |= Int16(POLLIN)
        case .wantWrite: waitsFor |= Int16(POLLOUT)
        case .done: break
        }
    }

    // MARK: Input

    private func readAvailable(limit: Int, _ events: inout [Event]) throws(Failure) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var read = 0
        while readsNow {
            guard read < limit else {
                mayHaveMore = true
                return
            }
            let count = try Self.rethrown { try buffer.withUnsafeMutableBytes { try receive(into: $0) } }
            guard let count else { break }
            guard count > 0 else {
                readEnded = true
                channel.peerEnded()
                events.append(.readEnded)
                return
            }
            read += count
            bytesReceived += Int64(count)
            channel.append(buffer[..<count])
        }
        if case .secure(let tls) = phase, readsNow, tls.hasBufferedBytes { mayHaveMore = true }
    }

    /// `body`'s failure as thrown by the buffer accessors, which rethrow untyped.
    private static func rethrown<T>(_ body: () throws -> T) throws(Failure) -> T {
        do { return try body() } catch let failure as Failure { throw failure } catch { throw .transport("\(error)") }
    }

    /// Reads what has arrived: how many bytes (0: the peer's end), or nil when nothing is there now.
    private func receive(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int? {
        switch phase {
        case .plain:
            do { return try transport.receive(into: buffer) } catch { throw .transport(error.message) }
        case .secure(let tls):
            let result: TLSClientSession.Transfer
            do { result = try tls.read(into: buffer) } catch { throw .tls(error) }
            switch result {
            case .bytes(let count): return count
            case .closed: return 0
            case .wantRead: return nil
            case .wantWrite:
                waitsFor |= Int16(POLLOUT)
                return nil
            }
        case .connecting, .handshaking:
            return nil
        }
    }
}

@available(*, unavailable) extension StreamLink: Sendable {}
