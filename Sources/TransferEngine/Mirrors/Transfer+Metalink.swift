import Curl
import Foundation
import Metalink
import TransferModels

// A download whose task names a Metalink document by URL (`"metalink": {"url": …}`): its request fetches
// the document first, with the session's rules like any request (proxy, path, egress, TLS); once read,
// the same transfer downloads the file from the document's mirrors. A document that cannot be used ends
// the task with -1017 `cannotParseResponse`.

/// What a fetched Metalink document gave.
enum MetalinkReading {
    case read(MetalinkContents)
    case unusable(TransferFailure)
}

extension Transfer {
    /// The request under way fetches the job's Metalink document (its mirrors are not known yet).
    var awaitsMetalink: Bool { job.readsMetalink && mirrors.pool == nil }

    /// The document's request ended well: its mirrors, or why it cannot be used.
    func readMetalink(_ outcome: TransferOutcome) -> MetalinkReading {
        func unusable(_ reason: String) -> MetalinkReading {
            .unusable(
                TransferFailure(
                    code: URLErrorCode.cannotParseResponse.rawValue, curlCode: 0, message: "metalink \(request.url): \(reason)",
                    reason: "metalinkInvalid"))
        }
        guard let status = outcome.response?.statusCode, status == 200 else {
            return unusable("status \(outcome.response?.statusCode ?? 0)")
        }
        let data: Data?
        switch outcome.body {
        case .none: data = Data()
        case .bytes(let bytes): data = Data(bytes)
        case .file(let path, let length):
            data = length <= Int64(MetalinkParser.maximumDocumentSize) ? FileManager.default.contents(atPath: path) : nil
        }
        guard let data else { return unusable("larger than \(MetalinkParser.maximumDocumentSize) bytes") }
        let contents: MetalinkContents
        do {
            contents = MetalinkContents(try MetalinkParser.parse(data))
        } catch {
            return unusable("\(error)")
        }
        if let expected = job.mirrors?.expectedLength, let size = contents.size, size != expected {
            return unusable("its size \(size) differs from expectedLength \(expected)")
        }
        return .read(contents)
    }

    /// The document was read: the transfer downloads the file from its first mirror, the others after.
    func followMetalink(_ contents: MetalinkContents) throws {
        let pieces = contents.pieces.map(MirrorSources.Pieces.init)
        let sources = MirrorSources(urls: contents.urls, expectedLength: job.mirrors?.expectedLength ?? contents.size, pieces: pieces)
        mirrors = MirrorRole(pool: MirrorPool(id: job.id, sources: sources, observer: observer), current: 0)
        useMirror(0)
        machine = TransferStateMachine(job: job, redirects: 0)
        try restartBody()
        try prepare()
    }

}

extension TransferScheduler {
    /// The Metalink document's request ended: on success the transfer goes on to the file (the task
    /// layer hears of the document, `didReadMetalink`); true when handled here.
    func continueFromMetalink(_ transfer: Transfer, _ outcome: TransferOutcome, multi: CurlMultiHandle) -> Bool {
        guard transfer.awaitsMetalink, outcome.error == nil else { return false }
        switch transfer.readMetalink(outcome) {
        case .unusable(let failure):
            release(transfer)
            observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: failure))
        case .read(let contents):
            observer.transfer(transfer.job.id, didReadMetalink: contents)
            do {
                try transfer.followMetalink(contents)
            } catch {
                release(transfer)
                observer.transfer(transfer.job.id, didComplete: transfer.outcome(failure: .init(curlError: error)))
                return true
            }
            needsPass = true
            admit(transfer, multi: multi)
        }
        return true
    }
}
