import Foundation
import ObjectStorage
import TestSupport
import Testing

/// The client against a real S3 server on loopback (moto, which checks every signature: see
/// `Tests/Fixtures/s3_server.py`).
@Suite("Object store: put, head, get (whole and ranged), delete against moto", .serialized)
struct ObjectStoreTests {
    @Test(.timeLimit(.minutes(2)))
    func putHeadGetRangeDelete() async throws {
        let server = try await S3Server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory.make(prefix: "object-store")
        defer { directory.remove() }
        let store = ObjectStore(configuration: try configuration(server, prefix: "p1"))
        // Larger than the reader's buffer, so the GET waits for its reader on the way.
        let bytes = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let file = directory.appending("body")
        try Data(bytes).write(to: file)

        let key = store.configuration.key("downloads/t 1+ü")  // encoded in the URL, signed as encoded
        let stored = try await store.put(fileAt: file.path, key: key)
        #expect(stored.size == UInt64(bytes.count))
        let head = try await store.head(key: key)
        #expect(head.size == UInt64(bytes.count))
        #expect(head.etag != nil)

        #expect(try await readAll(store.get(key: key)) == bytes)
        #expect(try await readAll(store.get(key: key, range: 10...1_048_585)) == Array(bytes[10...1_048_585]))
        #expect(try await readAll(store.get(key: key, range: UInt64(bytes.count - 1)...UInt64(bytes.count - 1))) == [bytes.last!])

        try await store.delete(key: key)
        await #expect(throws: ObjectStoreError.self) { try await store.head(key: key) }
        do {
            _ = try await store.head(key: key)
        } catch {
            #expect(error.isNotFound)
        }
        do {
            _ = try await readAll(store.get(key: key))
            Issue.record("a GET of a deleted object must fail")
        } catch {
            #expect(error.isNotFound)
        }
        try await store.delete(key: key)  // already gone: no error
    }

    @Test(.timeLimit(.minutes(2)))
    func aRangePastTheEndIsRefused() async throws {
        let server = try await S3Server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory.make(prefix: "object-store")
        defer { directory.remove() }
        let store = ObjectStore(configuration: try configuration(server))
        let file = directory.appending("small")
        try Data("hello".utf8).write(to: file)
        _ = try await store.put(fileAt: file.path, key: "small")
        do {
            _ = try await readAll(store.get(key: "small", range: 10...20))
            Issue.record("a range past the end must fail")
        } catch {
            #expect(error.status == 416)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aWrongSecretFailsClearlyWithoutShowingIt() async throws {
        let server = try await S3Server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory.make(prefix: "object-store")
        defer { directory.remove() }
        let file = directory.appending("body")
        try Data("payload".utf8).write(to: file)
        var wrong = try configuration(server)
        wrong.secretAccessKey = "not-the-secret-\(UInt32.random(in: 0 ... .max))"
        let store = ObjectStore(configuration: wrong)
        do {
            _ = try await store.put(fileAt: file.path, key: "refused")
            Issue.record("moto must refuse a wrong signature")
        } catch {
            #expect(error.isAuthenticationFailure)
            #expect(error.serverCode == "SignatureDoesNotMatch")
            #expect(!error.description.contains(wrong.secretAccessKey))
            #expect(!error.description.contains(server.secretAccessKey))
        }
        // The right key still works: the refusal was the signature's.
        _ = try await ObjectStore(configuration: try configuration(server)).put(fileAt: file.path, key: "accepted")
    }

    @Test(.timeLimit(.minutes(2)))
    func aReaderThatLeavesStopsTheTransfer() async throws {
        let server = try await S3Server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory.make(prefix: "object-store")
        defer { directory.remove() }
        let store = ObjectStore(configuration: try configuration(server))
        let file = directory.appending("big")
        try Data(count: 8 << 20).write(to: file)
        _ = try await store.put(fileAt: file.path, key: "big")
        let reader = store.get(key: "big")
        #expect(try await reader.next() != nil)
        reader.cancel()
        do {
            _ = try await reader.next()
            Issue.record("a cancelled reader must not read on")
        } catch {
            #expect(error.shortDescription == "cancelled")
        }
        // The server is still served (the stopped transfer held nothing).
        #expect(try await store.head(key: "big").size == 8 << 20)
    }

    private func configuration(_ server: S3Server, prefix: String = "") throws -> ObjectStoreConfiguration {
        try ObjectStoreConfiguration(
            url: server.objectStoreURL(prefix: prefix), accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey)
    }

    private func readAll(_ reader: ObjectReader) async throws(ObjectStoreError) -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try await reader.next() { bytes += chunk }  // bounded: the object ends
        return bytes
    }
}
