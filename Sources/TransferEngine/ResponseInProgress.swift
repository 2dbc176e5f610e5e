import Curl
import TransferModels

/// The response a transfer's current request is reading: its head as the header lines come, the head
/// delivered as the task's response (not a redirect's, not an authentication round's), the parts of a
/// `multipart/x-mixed-replace` one, and whether libcurl passes its body undecoded. Starts again with every
/// request.
struct ResponseInProgress {
    var head = ResponseHead()
    /// The head of the response whose body is being delivered (not a redirect being followed).
    var deliveredHead: ResponseHead?
    /// A `multipart/x-mixed-replace` response: its parts are the responses (`Transfer+MultipartReplace`).
    var multipart: MultipartReplaceParser?
    /// The parts of `multipart` delivered as responses so far.
    private(set) var partsDelivered = 0
    /// libcurl's content decoding is off for the response being received: it names a coding libcurl cannot decode.
    private(set) var passesUndecodedBody = false

    /// The task's response as its outcome reports it: the one delivered, else the last final head read.
    var finalHead: ResponseHead? { deliveredHead ?? (head.statusCode >= 200 ? head : nil) }

    /// The response just completed is multipart: its parts are the responses from now on.
    mutating func beginMultipart(_ parser: MultipartReplaceParser?) {
        multipart = parser
        partsDelivered = 0
    }

    /// The response of the next part: the part's header fields, with the status of the real response.
    mutating func nextPart(_ fields: [MultipartReplaceParser.Field]) -> ResponseHead {
        partsDelivered += 1
        var part = ResponseHead()
        part.httpVersion = head.httpVersion
        part.statusCode = head.statusCode
        part.fields = fields.map { ($0.name, $0.value) }
        return part
    }

    /// A complete head whose body is in a coding libcurl does not know is delivered as it came, its
    /// `Content-Encoding` or `Transfer-Encoding` saying how, as browsers do, rather than failing the task with
    /// -1016 (libcurl's 61). Any response's: a redirect's body, though dropped, would fail the transfer just
    /// the same. A range request (`isRangeRequest`) sends no `Accept-Encoding`, so libcurl leaves its
    /// `Content-Encoding` alone. Returns whether the body now passes undecoded when that changed; nil when
    /// it did not.
    mutating func undecodedBodyChange(isRangeRequest: Bool) -> Bool? {
        guard head.statusCode >= 200 else { return nil }  // 1xx: no body
        func values(_ name: String) -> [String] { head.fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value) }
        let contentEncodings = isRangeRequest ? [] : values("content-encoding")
        let undecodable = !CurlContentCodings.decodesAll(contentEncodings: contentEncodings, transferEncodings: values("transfer-encoding"))
        guard undecodable != passesUndecodedBody else { return nil }
        passesUndecodedBody = undecodable
        return undecodable
    }
}
