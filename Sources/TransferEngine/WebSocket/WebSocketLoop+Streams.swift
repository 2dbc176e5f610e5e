import Certificates
import Curl
import Foundation
import TransferModels

#if canImport(Glibc)
    import Glibc
#endif

// Stream tasks' connections on the loop, beside the WebSockets: connected, pumped when their socket is ready,
// told what the API asked, timed out, ended; and the outcome their task completes with, as URLSession's
// streamTask would.
extension WebSocketLoop {
    func streamConnected(_ link: StreamLink, failure: TransferFailure?) {
        if let failure { return endStream(link, failure: failure) }
        if link.cancelledWhileConnecting { return endStream(link, failure: Self.cancelled(link.job)) }
        link.phase = .plain
        service(link)
    }

    /// Adds the connected streams' sockets to `descriptors`; returns them in that order.
    func pollStreams(into descriptors: inout [pollfd], again: inout Bool) -> [StreamLink] {
        var polled: [StreamLink] = []
        for link in streams.values where link.isConnected {
            guard let socket = link.transport.socket else { continue }
            if link.mayHaveMore { again = true }
            descriptors.append(pollfd(fd: socket, events: link.pollEvents, revents: 0))
            polled.append(link)
        }
        return polled
    }

    /// Pumps the streams whose socket `poll` found ready (`events`, in the order of `links`).
    func serviceStreams(_ links: [StreamLink], events: [Int16]) {
        for (link, revents) in zip(links, events) {
            let broken = revents & Int16(POLLERR | POLLHUP) != 0
            if broken && link.pollEvents & Int16(POLLIN | POLLOUT) == 0 {
                // Nothing of ours waits on the socket, and it failed (a reset, or both ends shut): the
                // connection is gone, and polling it again would only find the same.
                endStream(link, failure: Self.connectionLost(link.job, "the connection was reset"))
            } else if revents != 0 || link.mayHaveMore {
                service(link)
            }
        }
    }

    func handle(_ command: StreamCommand, of link: StreamLink) {
        switch command {
        case .write(let bytes, let token, let deadline): link.output.append(.write(bytes, token: token, deadline: deadline))
        case .startSecureConnection: link.output.append(.startSecureConnection)
        case .closeWrite: link.output.append(.closeWrite)
        case .closeRead: link.readEnded = true
        case .resumeReading: break
        }
        if link.isConnected { service(link) }
    }

    /// Sends, reads and reports; ends the task when both sides ended, or the connection failed.
    func service(_ link: StreamLink) {
        let events: [StreamLink.Event]
        do {
            events = try link.pump(readLimit: Self.readPerTurn)
        } catch {
            return endStream(link, failure: failure(error, of: link))
        }
        for event in events { observer.transfer(link.job.id, streamDidEnd: event == .readEnded ? .read : .write) }
        if link.isFinished { endStream(link, failure: nil) }
    }

    func cancelStream(_ link: StreamLink) {
        guard link.isConnected else {
            link.cancelledWhileConnecting = true
            return
        }
        endStream(link, failure: Self.cancelled(link.job))
    }

    /// TLS handshakes past `timeoutIntervalForRequest` fail the task with -1001; writes past their own
    /// timeout are answered so (the task goes on).
    func checkStreamDeadlines() {
        let now = ContinuousClock.now
        for link in Array(streams.values) where link.isConnected {
            if let deadline = link.handshakeDeadline, deadline <= now {
                let failure = TransferFailure(
                    code: URLErrorCode.timedOut.rawValue, curlCode: 28, message: "the TLS handshake timed out")
                endStream(link, failure: failure)
            } else {
                link.expireWrites(now: now)
            }
        }
    }

    /// Ends the link and reports the task's outcome. A link still connecting is only forgotten here: its
    /// connect thread owns the transport until it returns (and releases it then).
    func endStream(_ link: StreamLink, failure: TransferFailure?) {
        guard streams.removeValue(forKey: link.job.id) != nil else { return }
        link.close()
        var outcome = Self.outcome(link.job, failure: failure)
        outcome.progress.bytesSent = link.bytesSent
        outcome.progress.bytesReceived = link.bytesReceived
        observer.transfer(link.job.id, didComplete: outcome)
    }

    /// Why the connection failed, as URLSession's streamTask reports it: a server not trusted by its -120x
    /// code, another TLS failure -1200, a connection that broke -1005.
    private func failure(_ error: StreamLink.Failure, of link: StreamLink) -> TransferFailure {
        switch error {
        case .transport(let message):
            return Self.connectionLost(link.job, message)
        case .tls(let failure):
            if let trust = failure.trust {
                return TransferFailure(
                    code: trust.urlErrorCode ?? URLErrorCode.serverCertificateUntrusted.rawValue, curlCode: 60, message: failure.message)
            }
            return TransferFailure(code: URLErrorCode.secureConnectionFailed.rawValue, curlCode: 35, message: failure.message)
        }
    }
}
