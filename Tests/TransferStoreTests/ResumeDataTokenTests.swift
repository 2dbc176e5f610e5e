import Crypto
import Foundation
import JSONCodec
import TestSupport
import Testing
import TransferModels
import TransferStore

/// Resume data tokens are sealed: a client holds bytes that say nothing about the server (its paths) or
/// the tenant, and only the tenant they were made for can use them.
@Suite("Resume data tokens")
struct ResumeDataTokenTests {
    static let path = "/var/lib/urlsessiond/downloads/tsk_secretpath.part"
    static let tenant = "tenant-acme-corp"

    static func resumeData() -> ResumeData {
        ResumeData(
            tenant: tenant, sourceTaskId: "tsk_0123456789abcdef",
            request: URLRequestSnapshot(url: "https://origin.example/big.iso"), path: path, offset: 4096,
            validator: "\"etag-1\"")
    }

    /// The token's bytes, decoded the way a curious client would (base64url).
    static func decoded(_ token: String) -> Data {
        var text = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text) ?? Data()
    }

    @Test(.timeLimit(.minutes(1)))
    func aTokenRevealsNeitherThePathNorTheTenant() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        let token = try store.token(for: Self.resumeData())
        let bytes = Self.decoded(token)
        #expect(!bytes.isEmpty, "\(token)")
        for secret in [Self.path, Self.tenant, "tsk_secretpath", "origin.example", "etag-1"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "the token shows \(secret)")
            #expect(!token.contains(secret), "the token shows \(secret)")
        }
        #expect(store.resumeData(from: token, tenant: Self.tenant) == Self.resumeData())
        try store.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func alteredForeignAndSignedOnlyTokensAreRefused() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        let token = try store.token(for: Self.resumeData())
        var characters = Array(token)
        for index in [0, characters.count / 2] {
            var altered = characters
            altered[index] = altered[index] == "A" ? "B" : "A"
            #expect(store.resumeData(from: String(altered), tenant: Self.tenant) == nil, "altered at \(index)")
        }
        // Every other last character, those that differ only in bits base64 leaves unused included.
        for replacement in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" where replacement != characters.last {
            var altered = characters
            altered[altered.count - 1] = replacement
            #expect(store.resumeData(from: String(altered), tenant: Self.tenant) == nil, "last character \(replacement)")
        }
        characters.removeLast()
        #expect(store.resumeData(from: String(characters), tenant: Self.tenant) == nil)
        #expect(store.resumeData(from: token, tenant: "another-tenant") == nil)
        #expect(store.resumeData(from: "", tenant: Self.tenant) == nil)
        // The earlier format, base64url(JSON).base64url(HMAC), even with a well-formed JSON part.
        let json = try WireJSON.encode(Self.resumeData())
        let signedOnly = Data(json).base64EncodedString() + "." + Data(repeating: 7, count: 32).base64EncodedString()
        #expect(store.resumeData(from: signedOnly, tenant: Self.tenant) == nil)
        try store.close()
    }
}
