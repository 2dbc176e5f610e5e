import Testing

@testable import TransferEngine

/// A response head as libcurl's header callback hands it over: line by line, as bytes.
@Suite("ResponseHead: header lines")
struct ResponseHeadTests {
    private func head(_ lines: [String]) -> (ResponseHead, ended: [Bool]) {
        var head = ResponseHead()
        let ended = lines.map { line in
            Array(line.utf8).withUnsafeBytes { head.consume(line: $0) }
        }
        return (head, ended)
    }

    @Test func aStatusLineAndFieldsAsReceived() {
        let (head, ended) = head([
            "HTTP/1.1 200 OK\r\n", "Content-Type: text/plain\r\n", "X-Empty:\r\n", "X-Tight:value\r\n",
            "X-Spaced: \t padded \r\n", "Set-Cookie: a=1\r\n", "set-cookie: b=2\r\n", "\r\n",
        ])
        #expect(ended == [false, false, false, false, false, false, false, true], "the blank line ends the head")
        #expect(head.httpVersion == "HTTP/1.1" && head.statusCode == 200)
        #expect(head.fields.map(\.name) == ["Content-Type", "X-Empty", "X-Tight", "X-Spaced", "Set-Cookie", "set-cookie"])
        #expect(head.fields.map(\.value) == ["text/plain", "", "value", "padded ", "a=1", "b=2"], "leading blanks go, trailing ones stay")
        #expect(head.value("SET-COOKIE") == "a=1")
        #expect(head.allHeaderFields["Set-Cookie"] == "a=1, b=2")
    }

    @Test func aNewStatusLineStartsANewHead() {
        let (head, _) = head(["HTTP/1.1 100 Continue\r\n", "X-Interim: 1\r\n", "\r\n", "HTTP/2  404\r\n", "Server: t\r\n"])
        #expect(head.httpVersion == "HTTP/2" && head.statusCode == 404, "runs of spaces, no reason phrase")
        #expect(head.fields.map(\.name) == ["Server"])
    }

    @Test func foldedLinesJoinTheFieldBeforeAndOddLinesAreSkipped() {
        let (head, ended) = head(["HTTP/1.0 302 Found\n", "X-Long: one\n", " \t two\n", "no colon here\n", "\t", "Location: /x"])
        #expect(head.statusCode == 302 && ended.last == false)
        #expect(head.fields.map(\.name) == ["X-Long", "Location"])
        #expect(head.value("x-long") == "one two ", "a continuation is joined with one space (a blank-only line adds it)")
        #expect(head.value("Location") == "/x", "no line end needed")
    }

    @Test func valuesAreUTF8AndInvalidBytesAreReplaced() {
        var head = ResponseHead()
        _ = head.consume(line: "HTTP/1.1 200 OK")
        let bytes: [UInt8] = Array("X-Name: caf\u{e9} ".utf8) + [0xFF, 0x3A, 0x20, 0x41, 0x0D, 0x0A]
        _ = bytes.withUnsafeBytes { head.consume(line: $0) }
        #expect(head.fields.first?.name == "X-Name")
        #expect(head.fields.first?.value == "caf\u{e9} \u{FFFD}: A", "the first colon separates; the rest is the value")
        let ended = head.consume(line: "\r\n")
        #expect(ended)
    }
}
