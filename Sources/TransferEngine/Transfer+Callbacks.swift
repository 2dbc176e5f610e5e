import Curl
import Foundation

// What libcurl tells a Transfer, on the engine loop thread (the Curl module's callbacks reach it as the
// easy handle's delegate). Each stays short: bytes to the sink, counters, a report queued.

extension Transfer: CurlTransferDelegate {
    /// Body bytes (decoded) to the sink; a sink error fails the transfer (23).
    func curlDidReceiveBody(_ bytes: UnsafeRawBufferPointer) -> CurlBodyVerdict {
        switch machine.routeBody() {
        case .pause: return .pause  // someone decides first: libcurl keeps the bytes and offers them again
        case .drop:
            meter.lastActivity = .now
            return .accepted
        case .refuse:
            meter.lastActivity = .now
            return .failed
        case .keep:
            // Past its bandwidth share: libcurl keeps the bytes, stops reading the socket, and offers them
            // again when the governor unpauses the transfer.
            if let flow = bandwidth {
                guard flow.admits(.receive, self) else { return .pause }
                flow.took(bytes.count, .receive)
            }
            meter.lastActivity = .now
        }
        if let download = segmentDownload { return download.receive(bytes, from: self) }
        if mirrors.refusal != nil { return .failed }  // a refused mirror's body is not the file
        let limit = configuration.maximumDownloadSize
        if limit > 0 && sink.length + Int64(bytes.count) > limit {
            _ = machine.handle(.bodyRefused(.tooLarge))  // a chunked or unannounced body: `failure(for:)` reports -1103
            return .failed
        }
        if response.multipart != nil { return receiveMultipart(bytes) }
        do {
            try sink.append(bytes)
            meter.progress.bytesReceived += Int64(bytes.count)
            return .accepted
        } catch {
            return .failed
        }
    }

    /// One header line; a blank line completes a response head.
    func curlDidReceiveHeaderLine(_ line: UnsafeRawBufferPointer) {
        meter.lastActivity = .now
        if response.head.consume(line: line) {
            passUndecodableBodyThrough()
            responseHeadCompleted()
        }
    }

    /// A body in a coding libcurl does not know passes undecoded (`ResponseInProgress.undecodedBodyChange`).
    ///
    /// This sets an option from the header callback, before any body byte is written. libcurl's general rule is not to
    /// call it from callbacks, but in 7.88.1 `CURLOPT_HTTP_CONTENT_DECODING` only stores the flag each body write reads
    /// (`http_ce_skip`), with nothing else to get out of step; `TasksContentCodingTests` would catch a libcurl that
    /// reads it earlier. Set back for a later response on the handle (libcurl's own authentication rounds).
    private func passUndecodableBodyThrough() {
        guard let undecoded = response.undecodedBodyChange(isRangeRequest: machine.range != nil) else { return }
        try? easy.set(.httpContentDecoding, !undecoded)
    }

    /// Upload counts (download counts come from the body, decoded), reported to the observer at most
    /// every `Transfer.progressReportInterval`.
    func curlProgress(totalBytesSent: Int64) -> Bool {
        // A chunked stream's count is its body's bytes, not libcurl's, which includes the chunk framing.
        let sent: Int64
        if case .stream(let stream) = request.body { sent = stream.bytesConsumed } else { sent = totalBytesSent }
        if sent > meter.progress.bytesSent { meter.progress.bytesSent = sent }
        reportProgressIfDue()
        return true
    }

    /// The request body from memory, its file, or the client's stream (paused while the stream is empty:
    /// its readable handler has the loop unpause the transfer).
    func curlReadBody(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let flow = bandwidth else { return readBody(into: buffer) }
        guard flow.admits(.send, self) else { return CurlReadVerdict.pause }  // unpaused by the governor
        // libcurl's send buffer is up to 2 MiB (`uploadBufferSize`): filled whole, a 1 MB/s flow would go
        // out in 2 MiB steps two seconds apart. A limited flow reads a bucket's worth at a time instead.
        let allowed = flow.sendChunkLimit.map { min($0, buffer.count) } ?? buffer.count
        let count = readBody(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<allowed]))
        if let count, count > 0, count != CurlReadVerdict.pause { flow.took(count, .send) }
        return count
    }

    private func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let upload else { return nil }
        meter.lastActivity = .now
        guard case .stream(let stream) = request.body else { return try? upload.read(into: buffer) }
        switch stream.read(into: buffer) {
        case .bytes(let count): return count
        case .empty: return CurlReadVerdict.pause
        case .end: return 0
        case .failed:
            _ = machine.handle(.bodyRefused(.uploadStreamFailed))
            return nil
        }
    }

    /// Rewinds the body (authentication, connection reuse retries). A stream cannot go back once read:
    /// libcurl then fails the transfer, which URLSession reports as -1021.
    func curlRewindBody(to offset: Int64) -> Bool {
        guard let upload else { return false }
        if case .stream(let stream) = request.body { return stream.bytesConsumed == offset }
        upload.seek(to: offset)
        return true
    }
}
