import HTTPCaching
import Testing

@Suite("Storing responses (RFC 9111 §3)")
struct StorabilityTests {
    private func storable(
        method: String = "GET", request: HTTPFields = [], status: Int = 200, response: HTTPFields = []
    ) -> Bool {
        HTTPCacheRules.isStorable(method: method, requestFields: request, statusCode: status, responseFields: response)
    }

    @Test func aPlainOKToGETIsStorable() {
        #expect(storable())
        #expect(storable(status: 404))
        #expect(storable(status: 501))
    }

    @Test func onlyGETIsStored() {
        #expect(!storable(method: "HEAD"))
        #expect(!storable(method: "POST", response: [("Cache-Control", "max-age=60")]))
        #expect(!storable(method: "get"), "methods are case-sensitive")
    }

    @Test(arguments: [100, 101, 206, 304, 199, 600])
    func partialNotModifiedAndInterimStatusesAreNot(status: Int) {
        #expect(!storable(status: status, response: [("Cache-Control", "max-age=60")]))
    }

    @Test func otherStatusesNeedExplicitPermission() {
        #expect(!storable(status: 302))
        #expect(!storable(status: 500))
        #expect(storable(status: 302, response: [("Cache-Control", "max-age=60")]))
        #expect(storable(status: 302, response: [("Expires", "0")]), "any Expires counts, even an expired one")
        #expect(storable(status: 307, response: [("Cache-Control", "public")]))
        #expect(storable(status: 500, response: [("Cache-Control", "private")]), "a private cache may store `private`")
    }

    @Test func noStoreOnEitherSideForbidsStoring() {
        #expect(!storable(request: [("Cache-Control", "no-store")]))
        #expect(!storable(response: [("Cache-Control", "max-age=60, No-Store")]))
        #expect(storable(response: [("Cache-Control", "no-cache")]), "no-cache stores, but revalidates on use")
    }

    @Test func varyStarIsNeverStored() {
        #expect(!storable(response: [("Vary", "Accept, *")]))
        #expect(storable(response: [("Vary", "Accept")]))
    }
}
