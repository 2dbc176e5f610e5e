import Foundation
import JSONCodec
import Testing
import TransferModels

/// `URLRequest.assumesHTTP3Capable` is accepted and kept (it has no effect: this libcurl has no HTTP/3),
/// shown only when true, and a stored request written without it reads as false.
@Suite("assumesHTTP3Capable")
struct AssumesHTTP3CapableTests {
    private func request(_ json: String) throws -> URLRequestSnapshot {
        let task = try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(json.utf8))
            .validated(session: SessionConfiguration(kind: .default))
        return try #require(task.request)
    }

    @Test func itIsAcceptedKeptAndShownOnlyWhenTrue() throws {
        let on = try request(#"{"kind": "data", "request": {"url": "https://origin.example/", "assumesHTTP3Capable": true}}"#)
        #expect(on.assumesHTTP3Capable)
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(WireJSON.encode(on))) as? [String: Any])
        #expect(shown["assumesHTTP3Capable"] as? Bool == true)

        let off = try request(#"{"kind": "data", "request": {"url": "https://origin.example/", "assumesHTTP3Capable": null}}"#)
        #expect(!off.assumesHTTP3Capable)
        let hidden = try #require(try JSONSerialization.jsonObject(with: Data(WireJSON.encode(off))) as? [String: Any])
        #expect(hidden["assumesHTTP3Capable"] == nil)
        #expect(try JSONDecoder().decode(URLRequestSnapshot.self, from: Data(WireJSON.encode(off))) == off, "rows without it read as false")
        #expect(try JSONDecoder().decode(URLRequestSnapshot.self, from: Data(WireJSON.encode(on))) == on)
    }
}
