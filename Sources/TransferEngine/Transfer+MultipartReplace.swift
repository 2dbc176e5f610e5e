import Curl
import Foundation
import TransferModels

// `multipart/x-mixed-replace` as URLSession reads it: each part is a response of its own (the part's
// header fields, with the status and URL of the real response), announced before its bytes, and its data
// replaces the previous part's. A delegate that decides about responses decides about each part.

extension Transfer {
    /// The parser of a `multipart/x-mixed-replace` response of a data or upload task (not of a download,
    /// which URLSession writes to its file as it comes): then its parts are the responses. nil otherwise.
    func multipartParser(for head: ResponseHead) -> MultipartReplaceParser? {
        guard job.kind != .download, request.method.uppercased() != "HEAD" else { return nil }
        return MultipartReplaceParser(contentType: head.value("content-type"))
    }

    /// The response just completed is multipart: its parts are the responses from now on.
    func beginMultipartReplace() {
        response.beginMultipart(multipartParser(for: response.head))
    }

    /// Body bytes of a multipart response, into the parser; what it can split is handled at once.
    func receiveMultipart(_ bytes: UnsafeRawBufferPointer) -> CurlBodyVerdict {
        response.multipart?.append(bytes)
        do {
            try handleMultipartParts()
            return .accepted
        } catch {
            return .failed
        }
    }

    /// Delivers what the parser holds: a part's head starts a new response, its content goes to the sink.
    /// Stops at a head the delegate decides about; the rest stays in the parser until the answer
    /// (the machine's `deliverHeldParts` action calls this again).
    func handleMultipartParts() throws {
        while machine.deliversParts, let output = response.multipart?.next() {
            switch output {
            case .head(let fields): try startPart(fields)
            case .content(let bytes):
                try bytes.withUnsafeBytes { try sink.append($0) }
                meter.progress.bytesReceived += Int64(bytes.count)
            }
        }
    }

    /// The request ended: the last part's held-back tail is its content. A response that never got to a
    /// part is delivered as it is, with no body.
    func finishMultipartReplace() -> TransferFailure? {
        guard let tail = response.multipart?.finish() else { return nil }
        do {
            if !tail.isEmpty {
                try tail.withUnsafeBytes { try sink.append($0) }
                meter.progress.bytesReceived += Int64(tail.count)
            }
        } catch {
            return TransferFailure(code: URLErrorCode.cannotWriteToFile.rawValue, curlCode: 23, message: "\(error)")
        }
        if response.partsDelivered == 0 { deliver(response.head) }
        return nil
    }

    /// A new part: the previous one's bytes are all reported first, its data is dropped ("discard all
    /// data previously delivered", as URLSession's documentation tells the delegate), then the part's
    /// response is announced, and asked about when the delegate decides.
    private func startPart(_ fields: [MultipartReplaceParser.Field]) throws {
        if response.partsDelivered > 0 {
            observer.transfer(job.id, didReceiveAllOfPart: meter.progress)
            if machine.becameDownload {
                try sink.truncate()
            } else {
                sink.discard()
                sink = try Self.makeSink(job, configuration)
            }
        }
        deliver(response.nextPart(fields))
        meter.progress.bytesExpectedToReceive = -1  // the stream's total is unknown, whatever one part says
        _ = perform(machine.handle(.partBegan))  // asked about, when the delegate decides
    }
}
