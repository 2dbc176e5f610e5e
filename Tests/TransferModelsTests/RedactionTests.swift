import Testing
import TransferModels

@Suite("Redaction of credentials in what the API shows")
struct RedactionTests {
    @Test(arguments: [
        ("https://ann:s3cret@example.com/a?b#c", "https://ann:*****@example.com/a?b#c"),
        ("http://ann@example.com/", "http://ann@example.com/"),
        ("http://example.com/path@with:at", "http://example.com/path@with:at"),
        ("http://a:b:c@example.com", "http://a:*****@example.com"),
        ("http://u:p@w@example.com/", "http://u:*****@example.com/"),
        ("data:text/plain,a@b:c", "data:text/plain,a@b:c"),
        ("not a url", "not a url"),
    ])
    func urlsLoseTheirPasswords(url: String, shown: String) {
        #expect(Redaction.url(url) == shown)
    }

    @Test func credentialFieldsKeepTheirSchemeOnly() {
        let fields = ["Authorization": "Bearer tok", "proxy-authorization": "secret", "Accept": "*/*"]
        #expect(Redaction.fields(fields) == ["Authorization": "Bearer *****", "proxy-authorization": "*****", "Accept": "*/*"])
    }
}
