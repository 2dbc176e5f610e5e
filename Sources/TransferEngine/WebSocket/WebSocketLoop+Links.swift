import Curl
import Foundation
import TransferModels
import WebSockets

// What happens to each connection on the loop thread: connected, read and written, closed, ended; and the
// outcome its task completes with, as URLSession's webSocketTask would.
extension WebSocketLoop {
    func connected(_ link: WebSocketLink, failure: TransferFailure?) {
        if let failure { return end(link, failure: failure) }
        if link.cancelledWhileConnecting { return end(link, failure: Self.cancelled(link.job)) }
        link.begin()
        service(link)
    }

    /// Writes what is queued, reads what arrived (unless the channel's buffer is full), and acts on it.
    func service(_ link: WebSocketLink) {
        guard let connection = link.connection else { return }
        do {
            try connection.writePending()
            if link.channel?.acceptsMessages ?? true {
                for event in try connection.readAvailable(limit: Self.readPerTurn) { handle(event, of: link) }
                try connection.writePending()  // pongs and the close frame's echo
            }
        } catch {
            try? connection.writePending()  // a protocol violation's close frame, best effort
            return end(link, failure: failure(for: error, of: link))
        }
        if connection.state != .handshaking && !connection.hasPendingOutput {
            for token in link.unflushedSends { link.channel?.resolveSend(token, .sent) }
            link.unflushedSends = []
        }
        if connection.state == .closed && !connection.hasPendingOutput && links[link.job.id] != nil {
            // No close frame came (the peer dropped the connection) and none was asked for: -1005.
            let dropped = connection.closeCode == .abnormalClosure && link.requestedClose == nil
            end(link, failure: dropped ? Self.connectionLost(link.job, "the connection closed without a close frame") : nil)
        }
    }

    private func handle(_ event: WebSocketConnectionEvent, of link: WebSocketLink) {
        let id = link.job.id
        switch event {
        case .opened(let chosen, let head):
            let response = WebSocketLink.responseHead(head)
            link.response = response
            if let cookies = link.job.cookies {
                let setCookies = head.fields.filter { $0.name.lowercased() == "set-cookie" }.map(\.value)
                if !setCookies.isEmpty { cookies.received(setCookies, from: link.httpURL) }
            }
            let channel = WebSocketChannel(
                id: id, maximumMessageSize: link.job.webSocket?.maximumMessageSize ?? WebSocketTaskOptions.defaultMaximumMessageSize,
                chosenProtocol: chosen, commands: { [weak self] in self?.send($0) })
            link.channel = channel
            if link.requestedClose != nil { channel.closing() }
            observer.transfer(id, didReceive: response, for: link.job.request, body: nil)
            observer.transfer(id, didOpenWebSocket: channel, protocol: chosen)
        case .message(let message):
            guard let channel = link.channel else { return }
            let (object, _) =
                switch message {
                case .string(let text): channel.append(string: text, data: nil)
                case .data(let bytes): channel.append(string: nil, data: bytes)
                }
            link.bytesReceived += Int64(object.length)
            observer.transfer(id, didReceiveWebSocketMessage: object)
        case .pong(let payload):
            guard payload.count == 8 else { return }  // not one of ours
            let token = payload.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            link.channel?.resolvePing(token, .pong)
        case .closed:
            break  // `service` ends the link once the close frame's echo is written
        }
    }

    /// `cancel()`: a going-away close frame is sent if it can be at once, and the task ends cancelled.
    func cancel(_ link: WebSocketLink) {
        guard link.requestedClose == nil else { return }  // `cancel(with:reason:)` came first: its handshake ends it
        guard let connection = link.connection else {
            link.cancelledWhileConnecting = true
            return
        }
        connection.close(code: .goingAway, reason: "")
        try? connection.writePending()
        end(link, failure: Self.cancelled(link.job), close: WebSocketClose(code: WebSocketCloseCode.goingAway.rawValue, reason: ""))
    }

    /// `cancel(with:reason:)`: the close handshake; the peer's close frame ends the task without an error.
    func closeHandshake(_ link: WebSocketLink, _ close: WebSocketClose) {
        guard link.requestedClose == nil else { return }
        link.requestedClose = close
        link.closeDeadline = .now + WebSocketLink.closeTimeout
        link.channel?.closing()
        guard let connection = link.connection else { return }  // sent once connected (after the upgrade)
        connection.close(code: WebSocketCloseCode(rawValue: close.code), reason: close.reason)
        service(link)
    }

    /// Handshakes that took longer than `timeoutIntervalForRequest` fail with -1001; a close handshake the
    /// peer did not answer in time ends (the close was asked for: no error).
    func checkDeadlines() {
        let now = ContinuousClock.now
        for link in Array(links.values) {
            if link.channel == nil, link.connection != nil, link.handshakeDeadline <= now {
                end(
                    link,
                    failure: TransferFailure(code: URLErrorCode.timedOut.rawValue, curlCode: 28, message: "the opening handshake timed out")
                )
            } else if let deadline = link.closeDeadline, deadline <= now {
                end(link, failure: nil)
            }
        }
    }

    /// The service stops: a going-away close frame is sent if it can be at once, and the task's end is
    /// reported (the task layer keeps it running for the next start, which settles it).
    func endAtShutdown(_ link: WebSocketLink) {
        if let connection = link.connection {
            connection.close(code: .goingAway, reason: "")
            try? connection.writePending()
        }
        end(link, failure: Self.connectionLost(link.job, "the service is stopping"))
    }

    /// Ends the link and reports the task's outcome. A link still connecting is only forgotten here: its
    /// connect thread owns the transport until it returns (and releases it then).
    func end(_ link: WebSocketLink, failure: TransferFailure?, close: WebSocketClose? = nil) {
        guard links.removeValue(forKey: link.job.id) != nil else { return }
        var ended = close ?? link.requestedClose
        if ended == nil, let connection = link.connection, connection.closeCode != .invalid {
            ended = WebSocketClose(code: connection.closeCode.rawValue, reason: connection.closeReason)
        }
        if ended == nil, link.channel != nil { ended = WebSocketClose(code: WebSocketCloseCode.abnormalClosure.rawValue, reason: "") }
        link.channel?.closed(ended)
        for token in link.unflushedSends { link.channel?.resolveSend(token, .notOpen) }
        var outcome = Self.outcome(link.job, failure: failure)
        outcome.response = link.response
        outcome.progress.bytesSent = link.bytesSent
        outcome.progress.bytesReceived = link.bytesReceived
        outcome.webSocketClose = ended
        observer.transfer(link.job.id, didComplete: outcome)
    }

    /// Why the connection failed, as URLSession's webSocketTask reports it.
    private func failure(for error: WebSocketConnectionError, of link: WebSocketLink) -> TransferFailure {
        switch error {
        case .handshake(let refusal, let head):
            if let head { link.response = WebSocketLink.responseHead(head) }
            return TransferFailure(
                code: URLErrorCode.badServerResponse.rawValue, curlCode: 0, message: "the upgrade was refused: \(refusal)",
                reason: "webSocketHandshake")
        case .protocolViolation(.messageTooBig(let limit)):
            // URLSession: POSIX EMSGSIZE (40) "Message too long"; the peer gets 1009.
            var failure = TransferFailure(
                code: URLErrorCode.unknown.rawValue, curlCode: 0, message: "a message larger than maximumMessageSize (\(limit) bytes)",
                reason: "maximumMessageSize")
            failure.posixCode = 40
            return failure
        case .protocolViolation(let violation):
            return TransferFailure(
                code: URLErrorCode.badServerResponse.rawValue, curlCode: 0, message: "the server broke RFC 6455: \(violation.reason)",
                reason: "webSocketProtocol")
        case .transport(let message):
            return Self.connectionLost(link.job, message)
        }
    }

    static func connectionLost(_ job: TransferJob, _ message: String) -> TransferFailure {
        TransferFailure(code: URLErrorCode.networkConnectionLost.rawValue, curlCode: 0, message: message)
    }

    static func cancelled(_ job: TransferJob) -> TransferFailure {
        TransferFailure(code: URLErrorCode.cancelled.rawValue, curlCode: 0, message: "cancelled")
    }

    static func outcome(_ job: TransferJob, failure: TransferFailure?) -> TransferOutcome {
        TransferOutcome(
            response: nil, currentRequest: job.request, error: failure,
            progress: TransferProgress(bytesSent: 0, bytesExpectedToSend: 0, bytesReceived: 0, bytesExpectedToReceive: -1),
            body: .none, transactions: [])
    }
}
