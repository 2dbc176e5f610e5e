import TransferEngine
import TransferModels

/// The response head an attempt reported (`didReceive`) and the `HTTPResponseSnapshot` made of it. The
/// completion and the metrics show the same head again: they reuse the snapshot rather than build the
/// same `allHeaderFields` from the same lines (a task built it three times).
struct ReportedResponse: Sendable {
    let head: ResponseHead
    let url: String
    let snapshot: HTTPResponseSnapshot

    init(_ head: ResponseHead, url: String) {
        self.head = head
        self.url = url
        self.snapshot = HTTPResponseSnapshot(url: url, statusCode: head.statusCode, headerLines: head.fields)
    }

    /// The snapshot of `head` at `url`: the reported one when it is that head, else a new one.
    static func snapshot(of head: ResponseHead, at url: String, reported: ReportedResponse?) -> HTTPResponseSnapshot {
        if let reported, reported.url == url, reported.head.statusCode == head.statusCode,
            reported.head.fields.count == head.fields.count,
            zip(reported.head.fields, head.fields).allSatisfy({ $0.name == $1.name && $0.value == $1.value })
        {
            return reported.snapshot
        }
        return HTTPResponseSnapshot(url: url, statusCode: head.statusCode, headerLines: head.fields)
    }
}
