import Foundation
import Metalink
import Testing

@Suite("Metalink 4 documents (RFC 5854)")
struct MetalinkParserTests {
    static let zeros = String(repeating: "0", count: 64)
    static let ones = String(repeating: "1", count: 64)

    static func document(_ file: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
              <published>2026-11-29T12:00:00Z</published>
              \(file)
            </metalink>
            """.utf8)
    }

    @Test func readsTheFileItsHashesAndItsURLsBestFirst() throws {
        let data = Self.document(
            """
            <file name="example.bin">
              <size>5</size>
              <hash type="md5">00000000000000000000000000000000</hash>
              <hash type="sha-256">\(Self.ones)</hash>
              <pieces length="2" type="sha-256"><hash>\(Self.zeros)</hash><hash>\(Self.ones)</hash><hash>\(Self.zeros)</hash></pieces>
              <url>http://unranked.example/f?a=1&amp;b=2</url>
              <url priority="2" location="de">https://second.example/f</url>
              <metaurl mediatype="torrent">http://t.example/f.torrent</metaurl>
              <url priority="1">http://first.example/f</url>
              <url priority="1">ftp://ftp.example/f</url>
            </file>
            """)
        let file = try MetalinkParser.parse(data)
        #expect(file.name == "example.bin")
        #expect(file.size == 5)
        #expect(file.sha256 == Data(repeating: 0x11, count: 32))
        #expect(file.pieces?.length == 2)
        #expect(file.pieces?.hashes == [Data(count: 32), Data(repeating: 0x11, count: 32), Data(count: 32)])
        #expect(file.urls.map(\.url) == ["http://first.example/f", "https://second.example/f", "http://unranked.example/f?a=1&b=2"])
        #expect(file.urls[1].location == "de" && file.urls[1].priority == 2)
    }

    @Test(arguments: [
        ("<a/>", "metalink"),
        ("not xml at all <", "metalink"),
        ("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><url>http://a/</url></file></oops>", "metalink"),
    ])
    func refusesWhatIsNotAMetalinkDocument(_ text: String, _ field: String) {
        #expect(throws: MetalinkError.self) { try MetalinkParser.parse(Data(text.utf8)) }
        do { _ = try MetalinkParser.parse(Data(text.utf8)) } catch { #expect(error.field == field, "\(error)") }
    }

    @Test(arguments: [
        ("<file name=\"a\"><url>http://a/</url></file><file name=\"b\"><url>http://b/</url></file>", "file"),
        ("<file><url>http://a/</url></file>", "file.name"),
        ("<file name=\"a\"><size>-1</size><url>http://a/</url></file>", "file.size"),
        ("<file name=\"a\"><size>1</size><size>1</size><url>http://a/</url></file>", "file.size"),
        ("<file name=\"a\"><url>ftp://a/</url></file>", "file.url"),
        ("<file name=\"a\"><url priority=\"0\">http://a/</url></file>", "file.url.priority"),
        ("<file name=\"a\"><hash type=\"sha-256\">abc</hash><url>http://a/</url></file>", "file.hash"),
        ("<file name=\"a\"><pieces length=\"2\" type=\"sha-256\"><hash>\(zeros)</hash></pieces><url>http://a/</url></file>", "file.size"),
        (
            "<file name=\"a\"><size>5</size><pieces length=\"2\" type=\"sha-256\"><hash>\(zeros)</hash></pieces><url>http://a/</url></file>",
            "file.pieces.hash"
        ),
        ("<file name=\"a\"><size>5</size><pieces length=\"0\" type=\"sha-256\"></pieces><url>http://a/</url></file>", "file.pieces.length"),
    ])
    func namesTheFieldAtFault(_ file: String, _ field: String) {
        do {
            _ = try MetalinkParser.parse(Self.document(file))
            Issue.record("accepted \(file)")
        } catch {
            #expect(error.field == field, "\(error)")
        }
    }

    @Test func doesNotReadExternalEntities() throws {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE metalink [<!ENTITY x SYSTEM "file:///etc/hostname">]>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="&x;a"><url>http://a/</url></file></metalink>
            """
        let name = (try? MetalinkParser.parse(Data(text.utf8)))?.name ?? ""
        let hostname = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(hostname == nil || hostname!.isEmpty || !name.contains(hostname!))
    }

    @Test func keepsAtMostSixteenURLs() throws {
        let urls = (1...20).map { "<url priority=\"\($0)\">http://m\($0).example/f</url>" }.joined()
        let file = try MetalinkParser.parse(Self.document("<file name=\"a\">\(urls)</file>"))
        #expect(file.urls.count == MetalinkParser.maximumURLs)
        #expect(file.urls.first?.url == "http://m1.example/f")
    }
}
