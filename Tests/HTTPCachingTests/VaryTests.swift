import HTTPCaching
import Testing

@Suite("Secondary keys: Vary (RFC 9111 §4.1)")
struct VaryTests {
    @Test func namesAreLowercasedDeduplicatedAndOrdered() {
        #expect(HTTPCacheRules.varyNames(of: []) == [])
        let fields: HTTPFields = [("Vary", "Accept-Encoding, accept-encoding,"), ("vary", " Accept-Language "), ("Date", "x")]
        #expect(HTTPCacheRules.varyNames(of: fields) == ["accept-encoding", "accept-language"])
    }

    @Test func starSelectsNothing() {
        #expect(HTTPCacheRules.varyNames(of: [("Vary", "*")]) == nil)
        #expect(HTTPCacheRules.varyNames(of: [("Vary", "Accept"), ("Vary", "*")]) == nil)
    }

    @Test func valuesJoinSeveralFieldsAndSkipAbsentOnes() {
        let request: HTTPFields = [("Accept", "text/html "), ("User-Agent", "x"), ("accept", "\tapplication/json")]
        let values = HTTPCacheRules.varyValues(names: ["accept", "accept-language"], requestFields: request)
        #expect(values == ["accept": "text/html, application/json"])
    }

    private func stored(vary: String, request: HTTPFields) -> StoredResponse {
        let names = HTTPCacheRules.varyNames(of: [("Vary", vary)]) ?? []
        return Fixture.response(
            [("Vary", vary)], varyValues: HTTPCacheRules.varyValues(names: names, requestFields: request))
    }

    @Test func equalValuesMatch() {
        let response = stored(vary: "Accept-Language", request: [("Accept-Language", "en")])
        #expect(HTTPCacheRules.varyMatches(response, requestFields: [("accept-language", " en ")]))
        #expect(!HTTPCacheRules.varyMatches(response, requestFields: [("Accept-Language", "fr")]))
        #expect(!HTTPCacheRules.varyMatches(response, requestFields: []), "present then, absent now")
    }

    @Test func absentInBothMatches() {
        let response = stored(vary: "Accept-Language", request: [])
        #expect(HTTPCacheRules.varyMatches(response, requestFields: [("Accept", "*/*")]))
        #expect(!HTTPCacheRules.varyMatches(response, requestFields: [("Accept-Language", "en")]), "absent then, present now")
    }

    @Test func severalFieldsMatchOnceJoined() {
        let response = stored(vary: "Accept", request: [("Accept", "a"), ("Accept", "b")])
        #expect(HTTPCacheRules.varyMatches(response, requestFields: [("Accept", "a "), ("ACCEPT", " b")]))
        #expect(!HTTPCacheRules.varyMatches(response, requestFields: [("Accept", "b"), ("Accept", "a")]), "order matters")
    }

    @Test func everyNamedFieldMustMatch() {
        let response = stored(vary: "Accept, Accept-Encoding", request: [("Accept", "a"), ("Accept-Encoding", "gzip")])
        #expect(HTTPCacheRules.varyMatches(response, requestFields: [("Accept", "a"), ("Accept-Encoding", "gzip")]))
        #expect(!HTTPCacheRules.varyMatches(response, requestFields: [("Accept", "a"), ("Accept-Encoding", "br")]))
    }

    @Test func starNeverMatchesAndNoVaryAlwaysDoes() {
        #expect(!HTTPCacheRules.varyMatches(Fixture.response([("Vary", "*")]), requestFields: []))
        #expect(HTTPCacheRules.varyMatches(Fixture.response([]), requestFields: [("Accept", "x")]))
    }
}
