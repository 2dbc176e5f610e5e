import Crypto
import EventDelivery
import Foundation
import Testing

@Suite("Standard Webhooks signatures")
struct WebhookSignerTests {
    /// The example of the Standard Webhooks reference libraries (and `standardwebhooks` 1.1.0 on PyPI).
    @Test func matchesTheReferenceVector() throws {
        let signer = try #require(WebhookSigner(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let signature = signer.signature(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8))
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    /// Computed independently with swift-crypto's HMAC over the spec's signed content.
    @Test func agreesWithAnIndependentHMAC() throws {
        let key = (0..<32).map { UInt8($0 &* 7 &+ 3) }
        let secret = "whsec_" + Data(key).base64EncodedString()
        let signer = try #require(WebhookSigner(secret: secret))
        let body = Array(#"{"data":{"a":"/x"},"id":"evt_1"}"#.utf8)
        let expected = HMAC<SHA256>.authenticationCode(
            for: Array("evt_1.1700000000.".utf8) + body, using: SymmetricKey(data: key))
        #expect(signer.signature(id: "evt_1", timestamp: 1_700_000_000, body: body) == "v1," + Data(expected).base64EncodedString())
        let headers = signer.headers(id: "evt_1", timestamp: 1_700_000_000, body: body)
        #expect(headers.map(\.name) == ["webhook-id", "webhook-timestamp", "webhook-signature"])
        #expect(headers[1].value == "1700000000")
    }

    /// The signer keeps its keyed HMAC and copies it for each signature: one signer used many times, from
    /// several tasks at once, signs each body as a new signer would (no signature leaks into the next).
    @Test func oneSignerSignsEachBodyAsANewOneWouldAlsoConcurrently() async throws {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        let shared = try #require(WebhookSigner(secret: secret))
        func sign(_ signer: WebhookSigner, _ index: Int) -> String {
            signer.signature(id: "evt_\(index)", timestamp: 1_700_000_000, body: Array("{\"n\":\(index)}".utf8))
        }
        let signatures = await withTaskGroup(of: (Int, String).self) { group in
            for index in 0..<64 {
                group.addTask { (index, sign(shared, index)) }
            }
            return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        for index in 0..<64 {
            let fresh = try #require(WebhookSigner(secret: secret))
            #expect(signatures[index] == sign(fresh, index))
        }
    }

    @Test func refusesMalformedSecrets() {
        #expect(WebhookSigner(secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil)
        #expect(WebhookSigner(secret: "whsec_###") == nil)
        #expect(WebhookSigner(secret: "whsec_" + Data([1, 2, 3]).base64EncodedString()) == nil)
    }
}
