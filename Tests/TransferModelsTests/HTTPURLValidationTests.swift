import JSONCodec
import Testing

@testable import TransferModels

/// The contract's `HTTPURL`: what the schema's pattern admits, the server admits, and nothing else.
@Suite("HTTP URLs")
struct HTTPURLValidationTests {
    @Test(arguments: [
        "http://a", "HTTPS://origin.example:8443/path?q=1#f", "http://user:pass@host/", "http://[::1]:8080/x",
        "http://a:/", "http://xn--nxasmq6b.example/", "http://a/ä/b[c]|d",
    ])
    func accepted(url: String) throws {
        try Validate.httpURL(url, field: "url")
    }

    @Test(arguments: [
        "ftp://a/", "http://", "http:///path", "http://a b/", "http://\\a", "http://ä/", "http://[::1", "http://a:1:2/",
        "http://a:123456/", "http://a:x/", "http://a%zz/", "http://a@b c/",
    ])
    func refused(url: String) {
        #expect(throws: RequestDecodingError.self, "\(url)") { try Validate.httpURL(url, field: "url") }
    }
}
