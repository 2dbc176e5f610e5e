import Testing

@testable import TransferEngine

/// The `multipart/x-mixed-replace` framing, fed in every possible split of the bytes.
@Suite("multipart/x-mixed-replace parts")
struct MultipartReplaceParserTests {
    typealias Part = (fields: [String: String], content: [UInt8])

    /// Feeds `body` in pieces of `chunk` bytes and collects the parts.
    static func parts(_ body: [UInt8], contentType: String, chunk: Int) throws -> [Part] {
        var parser = try #require(MultipartReplaceParser(contentType: contentType))
        var parts: [Part] = []
        var index = 0
        while index < body.count {
            let piece = Array(body[index..<min(body.count, index + chunk)])
            piece.withUnsafeBytes { parser.append($0) }
            index += chunk
            while let output = parser.next() {
                switch output {
                case .head(let fields):
                    parts.append((Dictionary(fields.map { ($0.name, $0.value) }) { $1 }, []))
                case .content(let bytes):
                    try #require(!parts.isEmpty, "content before any head")
                    parts[parts.count - 1].content += bytes
                }
            }
        }
        if !parts.isEmpty { parts[parts.count - 1].content += parser.finish() }
        return parts
    }

    static let body = Array(
        """
        preamble, ignored\r
        --frame\r
        Content-Type: text/plain\r
        X-Part: 1\r
        \r
        first\r\n--fram is not it\r
        --frame\r
        X-Part: 2\r
        \r
        \r
        --frame  \r
        X-Part: 3\r
        \r
        third\r
        --frame--\r
        epilogue --frame\r

        """.utf8)

    @Test(arguments: [1, 2, 3, 7, 16, 1000])
    func partsAreSplitWhateverTheChunks(chunk: Int) throws {
        let parts = try Self.parts(Self.body, contentType: "multipart/x-mixed-replace; boundary=frame", chunk: chunk)
        #expect(parts.map { $0.fields["X-Part"] } == ["1", "2", "3"], "\(parts.map(\.fields))")
        #expect(parts.first?.fields["Content-Type"] == "text/plain")
        #expect(parts.map { String(decoding: $0.content, as: UTF8.self) } == ["first\r\n--fram is not it", "", "third"])
    }

    @Test func lineFeedsAloneAndQuotedBoundaries() throws {
        let body = Array("--a b\nX-Part: 1\n\nx\n--a b\nX-Part: 2\n\nyz\n--a b--\n".utf8)
        let parts = try Self.parts(body, contentType: #"Multipart/X-Mixed-Replace;boundary="a b""#, chunk: 3)
        #expect(parts.map { String(decoding: $0.content, as: UTF8.self) } == ["x", "yz"])
    }

    @Test func aBodyCutOffKeepsWhatArrived() throws {
        let body = Array("--f\r\nX-Part: 1\r\n\r\nabcdefghij".utf8)
        let parts = try Self.parts(body, contentType: "multipart/x-mixed-replace; boundary=f", chunk: 4)
        #expect(parts.count == 1 && String(decoding: parts[0].content, as: UTF8.self) == "abcdefghij")
    }

    @Test func otherTypesAndBoundariesAreNotParsed() {
        #expect(MultipartReplaceParser(contentType: "multipart/mixed; boundary=x") == nil)
        #expect(MultipartReplaceParser(contentType: "multipart/x-mixed-replace") == nil)
        #expect(MultipartReplaceParser(contentType: "multipart/x-mixed-replace; boundary=") == nil)
        #expect(MultipartReplaceParser(contentType: "text/plain") == nil)
        #expect(MultipartReplaceParser(contentType: nil) == nil)
    }
}
