internal import Foundation

/// Whether a connection serves another request after a response.
enum FixtureDisposition {
    case keepAlive
    case close
}

/// A complete response held in memory; streaming routes write their heads with ``head(closing:)`` instead.
struct FixtureResponse {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8] = []

    /// A `text/plain` response.
    static func text(_ status: Int, _ text: String, headers: [(String, String)] = []) -> FixtureResponse {
        FixtureResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array(text.utf8))
    }

    /// An `application/json` response with sorted keys, so bodies are byte-for-byte deterministic.
    static func json(_ status: Int, _ object: [String: Any], headers: [(String, String)] = []) -> FixtureResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return FixtureResponse(
            status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(data))
    }

    /// Statuses whose responses never carry content (RFC 9110 §6.4.1).
    static func forbidsBody(_ status: Int) -> Bool {
        status < 200 || status == 204 || status == 304
    }

    /// The status line and fields, with `Content-Length` added unless the fields frame the body already,
    /// and `Connection: close` when `closing`.
    func head(closing: Bool) -> [UInt8] {
        var fields = self.headers
        let named = { (name: String) in fields.contains { $0.0.lowercased() == name } }
        if !Self.forbidsBody(self.status), !named("content-length"), !named("transfer-encoding") {
            fields.append(("Content-Length", "\(self.body.count)"))
        }
        if closing, !named("connection") { fields.append(("Connection", "close")) }
        return Self.head(status: self.status, headers: fields)
    }

    /// A status line and `headers`, verbatim, ending with the blank line.
    static func head(status: Int, headers: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    static func reason(_ status: Int) -> String {
        let reasons: [Int: String] = [
            100: "Continue", 103: "Early Hints", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
            206: "Partial Content", 301: "Moved Permanently", 302: "Found", 303: "See Other",
            304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
            401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
            408: "Request Timeout", 412: "Precondition Failed", 413: "Content Too Large",
            416: "Range Not Satisfiable", 417: "Expectation Failed", 429: "Too Many Requests",
            431: "Request Header Fields Too Large", 500: "Internal Server Error", 501: "Not Implemented",
            502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return reasons[status] ?? "Status \(status)"
    }
}

extension FixtureSocket {
    /// Writes `response` for `request`: no body for `HEAD` or statuses without content, and the connection
    /// closes after it when the client asked for that or `closing` is set.
    func send(
        _ response: FixtureResponse, to request: FixtureRequest, closing: Bool = false
    ) throws(FixtureSocketError) -> FixtureDisposition {
        let close = closing || request.wantsClose
        var bytes = response.head(closing: close)
        if !request.isHead, !FixtureResponse.forbidsBody(response.status) { bytes += response.body }
        try self.write(bytes)
        return close ? .close : .keepAlive
    }
}
