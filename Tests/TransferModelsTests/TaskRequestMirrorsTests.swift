import Foundation
import JSONCodec
import Testing
import TransferModels

@Suite("Task create requests: mirrors, expectedLength and metalink")
struct TaskRequestMirrorsTests {
    private let blobID = "blb_0123456789ABCDEFGHIJKL"
    private let digest = "sha-256=:\(Data(repeating: 1, count: 32).base64EncodedString()):"

    private func validate(_ json: String, metalink: MetalinkContents? = nil) throws(RequestDecodingError) -> ValidatedTaskRequest {
        try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(json.utf8))
            .validated(session: SessionConfiguration(kind: .default), metalink: metalink)
    }

    private func field(of json: String, metalink: MetalinkContents? = nil) -> String? {
        do {
            _ = try validate(json, metalink: metalink)
            return nil
        } catch {
            return error.field
        }
    }

    @Test func mirrorsKeepTheirOrderWithTheRequestsURLFirst() throws {
        let task = try validate(
            #"{"kind": "download", "request": {"url": "http://a/f"}, "mirrors": ["http://a/f", "https://b/f"], "expectedLength": 5}"#)
        #expect(task.sources == TransferSources(mirrors: ["http://a/f", "https://b/f"], expectedLength: 5))
        #expect(try validate(#"{"kind": "download", "request": {"url": "http://a/f"}}"#).sources == nil)
    }

    @Test func aMetalinkBlobGivesTheURLTheSizeTheDigestAndThePieces() throws {
        let pieces = PieceHashes(length: 4, sha256: [String(repeating: "0", count: 64), String(repeating: "1", count: 64)])
        let contents = MetalinkContents(urls: ["http://m1/f", "http://m2/f"], size: 8, digest: digest, pieces: pieces)
        let task = try validate(
            #"{"kind": "download", "metalink": {"blobId": "\#(blobID)"}, "request": {"timeoutInterval": 5}}"#, metalink: contents)
        #expect(task.request?.url == "http://m1/f")
        #expect(task.request?.timeoutInterval == 5, "the request lends the rest")
        #expect(task.expectedDigest == digest)
        #expect(
            task.sources
                == TransferSources(
                    mirrors: ["http://m1/f", "http://m2/f"], expectedLength: 8, pieces: pieces, metalink: MetalinkInput(blobId: blobID)))
    }

    @Test func aMetalinkBlobMustAgreeWithTheTasksOwnLengthAndDigest() {
        let contents = MetalinkContents(urls: ["http://m1/f"], size: 8, digest: digest, pieces: nil)
        let body = #"{"kind": "download", "metalink": {"blobId": "\#(blobID)"}"#
        #expect(field(of: body + #", "expectedLength": 9}"#, metalink: contents) == "expectedLength")
        #expect(field(of: body + #", "expectedDigest": "sha-256=:AAAA:"}"#, metalink: contents) == "expectedDigest")
        #expect(field(of: body + "}", metalink: nil) == "metalink.blobId", "a blob the caller could not read")
        #expect(field(of: body + #", "expectedLength": 8, "expectedDigest": "\#(digest)"}"#, metalink: contents) == nil)
    }

    @Test func aMetalinkURLIsTheRequestsURLUntilItIsRead() throws {
        let task = try validate(#"{"kind": "download", "metalink": {"url": "https://meta.example/f.meta4"}}"#)
        #expect(task.request?.url == "https://meta.example/f.meta4")
        #expect(task.sources == TransferSources(mirrors: [], metalink: MetalinkInput(url: "https://meta.example/f.meta4")))
    }

    @Test func resumeDataTakesNoMirrors() {
        #expect(field(of: #"{"kind": "download", "resumeData": "x", "mirrors": ["http://a/f"]}"#) == "mirrors")
    }
}
