import Curl
import Foundation

// What libcurl tells a Transfer, on the engine loop thread (the Curl module's callbacks reach it as the
// easy handle's delegate). Each stays short: bytes to the sink, counters, a report queued.

extension Transfer: CurlTransferDelegate {
    /// Body bytes (decoded) to the sink; a sink error fails the transfer (23).
    func curlDidReceiveBody(_ bytes: UnsafeRawBufferPointer) -> CurlBodyVerdict {
        // The delegate is deciding about this response: libcurl keeps the bytes and offers them again.
        if waiting != nil { return .pause }
        lastActivity = .now
        if discardingBody { return .accepted }
        if let download = segmentDownload {
            // A range request's answer that is not the range asked for: nothing of it is kept.
            guard segmentRequest == nil || segmentAnswer == .accepted else { return .failed }
            return download.receive(bytes, from: self)
        }
        let limit = configuration.maximumDownloadSize
        if limit > 0 && sink.length + Int64(bytes.count) > limit {
            exceededMaximumSize = true  // a chunked or unannounced body: `failure(for:)` reports -1103
            return .failed
        }
        if multipart != nil { return receiveMultipart(bytes) }
        do {
            try sink.append(bytes)
            progress.bytesReceived += Int64(bytes.count)
            return .accepted
        } catch {
            return .failed
        }
    }

    /// One header line; a blank line completes a response head.
    func curlDidReceiveHeaderLine(_ line: UnsafeRawBufferPointer) {
        lastActivity = .now
        if head.consume(line: String(decoding: line, as: UTF8.self)) {
            responseHeadCompleted()
        }
    }

    /// Upload counts (download counts come from the body, decoded), reported to the observer at most
    /// every `Transfer.progressReportInterval`.
    func curlProgress(totalBytesSent: Int64) -> Bool {
        // A chunked stream's count is its body's bytes, not libcurl's, which includes the chunk framing.
        let sent: Int64
        if case .stream(let stream) = request.body { sent = stream.bytesConsumed } else { sent = totalBytesSent }
        if sent > progress.bytesSent { progress.bytesSent = sent }
        reportProgressIfDue()
        return true
    }

    /// The request body from memory, its file, or the client's stream (paused while the stream is empty:
    /// its readable handler has the loop unpause the transfer).
    func curlReadBody(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let upload else { return nil }
        lastActivity = .now
        guard case .stream(let stream) = request.body else { return try? upload.read(into: buffer) }
        switch stream.read(into: buffer) {
        case .bytes(let count): return count
        case .empty: return CurlReadVerdict.pause
        case .end: return 0
        case .failed:
            streamFailed = true
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
