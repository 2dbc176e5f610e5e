import Curl
import Foundation
import TransferModels

/// What the store says of an object.
public struct ObjectInfo: Hashable, Sendable {
    /// Its length in bytes.
    public let size: UInt64
    /// Its entity tag as the server gave it (quotes included), when it gave one.
    public let etag: String?
}

/// An S3-compatible object store (one bucket), spoken to with libcurl: objects put from local files
/// (streamed, never loaded into memory), read whole or by range as they arrive, described and deleted.
/// Requests are signed with AWS Signature Version 4 by libcurl itself (`CURLOPT_AWS_SIGV4`).
///
/// Each request runs on a thread of its own with `curl_easy_perform` (see ``ObjectExchange``): a handful
/// at a time — puts at completions (at most `maximumConcurrentUploads` at once), reads of `/file` — where a
/// multi loop would add a service and a lifecycle for no gain in throughput.
public final class ObjectStore: Sendable {
    public let configuration: ObjectStoreConfiguration
    private let uploads: AsyncLimiter

    public init(configuration: ObjectStoreConfiguration) {
        self.configuration = configuration
        self.uploads = AsyncLimiter(limit: max(1, configuration.maximumConcurrentUploads))
    }

    /// Puts the file at `path` under `key` (replacing any object there), streamed from disk.
    /// - Returns: the object's size and entity tag as stored.
    public func put(fileAt path: String, key: String) async throws(ObjectStoreError) -> ObjectInfo {
        let configuration = self.configuration
        await uploads.acquire()
        defer { uploads.release() }
        return try await Self.onThread { () throws(ObjectStoreError) -> ObjectInfo in
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .localFile("opening \(path): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw .localFile("stat \(path): \(String(cString: strerror(errno)))") }
            let exchange = try Self.exchange { () throws(CurlError) in
                try ObjectExchange(
                    configuration: configuration, method: .put, key: key, upload: (descriptor, Int64(status.st_size)))
            }
            let code = try exchange.perform().get()
            guard code == 200 else { throw exchange.rejection(status: code) }
            return ObjectInfo(size: UInt64(status.st_size), etag: exchange.header("ETag"))
        }
    }

    /// The object's size and entity tag.
    /// - Throws: ``ObjectStoreError`` (`isNotFound`) when there is no object under `key`.
    public func head(key: String) async throws(ObjectStoreError) -> ObjectInfo {
        let configuration = self.configuration
        return try await Self.onThread { () throws(ObjectStoreError) -> ObjectInfo in
            let exchange = try Self.exchange { () throws(CurlError) in
                try ObjectExchange(configuration: configuration, method: .head, key: key)
            }
            let code = try exchange.perform().get()
            guard code == 200 else { throw exchange.rejection(status: code) }
            guard let length = exchange.header("Content-Length").flatMap({ UInt64($0) }) else {
                throw .rejected(status: code, serverCode: nil, detail: "HEAD \(key) answered no Content-Length")
            }
            return ObjectInfo(size: length, etag: exchange.header("ETag"))
        }
    }

    /// Deletes the object under `key`; one already gone is no error (S3 answers 204 for both).
    public func delete(key: String) async throws(ObjectStoreError) {
        let configuration = self.configuration
        try await Self.onThread { () throws(ObjectStoreError) in
            let exchange = try Self.exchange { () throws(CurlError) in
                try ObjectExchange(configuration: configuration, method: .delete, key: key)
            }
            let code = try exchange.perform().get()
            guard code == 204 || code == 200 || code == 404 else { throw exchange.rejection(status: code) }
        }
    }

    /// Starts reading the object under `key` — the bytes `range` names, or all of it — and returns at once;
    /// the bytes (or the failure: no such object, a range past its end) come through the reader.
    public func get(key: String, range: ClosedRange<UInt64>? = nil) -> ObjectReader {
        let configuration = self.configuration
        let reader = ObjectReader(stallTimeout: TimeInterval(configuration.stallTimeout))
        Self.startThread {
            let result = Result { () throws(ObjectStoreError) in
                let exchange = try Self.exchange { () throws(CurlError) in
                    try ObjectExchange(
                        configuration: configuration, method: .get, key: key, range: range, sink: { reader.deliver($0) },
                        isStopped: { reader.isStopped })
                }
                let code = try exchange.perform().get()
                guard code == (range == nil ? 200 : 206) else { throw exchange.rejection(status: code) }
            }
            reader.finish(result)
        }
        return reader
    }

    // MARK: Threads

    /// Runs `work` on a new thread and returns its result: it blocks in libcurl, which must not happen on
    /// Swift's cooperative pool.
    private static func onThread<T: Sendable>(
        _ work: @escaping @Sendable () throws(ObjectStoreError) -> T
    ) async throws(ObjectStoreError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, ObjectStoreError>, Never>) in
            startThread { continuation.resume(returning: Result(catching: work)) }
        }
        return try result.get()
    }

    private static func startThread(_ body: @escaping @Sendable () -> Void) {
        ServiceThread.start(name: "urlsessiond-object-store", body)
    }

    /// A libcurl failure while setting a request up, as the store's error.
    private static func exchange(_ make: () throws(CurlError) -> ObjectExchange) throws(ObjectStoreError) -> ObjectExchange {
        do {
            return try make()
        } catch {
            throw .transport("setting up a request failed: \(error)")
        }
    }
}
