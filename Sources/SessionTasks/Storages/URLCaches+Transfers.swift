import Foundation
import HTTPCaching
import JSONCodec
import TransferEngine
import TransferModels

// How a transfer uses its session's cache: before the job is made (serve, validate, or neither — by the
// request's cache policy and RFC 9111), and after it ended (store, update from a 304, invalidate).
extension URLCaches {
    /// What the cache holds for `request` that the job uses, by `policy`: nil when the request goes to the
    /// network as it is. Throws `cannotLoadFromNetwork` (-2000) when the policy forbids the network and
    /// nothing usable is stored (`returnCacheDataDontLoad`). Only GET requests use the cache. A stale
    /// response served within its `stale-while-revalidate` window comes with what its background
    /// revalidation needs: the conditional fields it sends (empty: a plain load) and the head as stored.
    func storedResponse(
        for request: OutgoingRequest, policy: RequestCachePolicy, placement: Placement?
    ) async throws -> (response: StoredTransferResponse, revalidation: (conditions: HTTPFields, head: ResponseHead)?)? {
        guard let mode = CacheMode(rawValue: policy.rawValue), request.method.uppercased() == "GET", case .none = request.body
        else { return nil }
        if let range = HTTPCacheRules.unconditionalRange(in: request.headers), mode == .useProtocolCachePolicy {
            return try await storedRange(range, for: request, placement: placement).map { ($0, nil) }
        }
        var storage: URLCacheStorage?
        var entry: URLCacheStorage.Entry?
        if let placement, let key = HTTPCacheRules.cacheKey(of: request.url) {
            storage = try await self.storage(placement)
            entry = storage?.entry(for: key)
        }
        // Twice at most: an entry evicted between the lookup and reading its body counts as none.
        for _ in 0..<2 {
            let use: StoredTransferResponse.Use
            var conditions: HTTPFields?
            let now = Date()
            switch HTTPCacheRules.lookup(mode, stored: entry?.stored, requestFields: request.headers, now: now) {
            case .load: return nil
            case .fail: throw TransferError(.cannotLoadFromNetwork, failingURL: request.url)
            case .useStored: use = .serve
            case .useStoredAndRevalidate(let fields): (use, conditions) = (.serve, fields)
            case .validate(let fields): use = .validate(conditionalFields: fields)
            }
            guard let found = entry, let storage, let body = try await transferBody(of: found, in: storage) else {
                entry = nil
                continue
            }
            var head = ResponseHead()
            head.httpVersion = "HTTP/1.1"
            head.statusCode = found.statusCode
            head.fields = found.fields
            var served = head
            // A hit is served at once (it takes no transfer slot), so its age is the one at this lookup.
            if case .serve = use { served.fields = HTTPCacheRules.servedFields(of: found.stored, now: now) }
            return (StoredTransferResponse(use: use, head: served, body: body), conditions.map { ($0, head) })
        }
        return nil
    }

    /// A 206 of `range` cut from a stored 200 that may be served without validation, with `Content-Range`
    /// and its `Content-Length`; nil (the request goes to the origin as it is) when nothing fresh is stored,
    /// the range is not one satisfiable byte range, or the body is not held in memory or the store (a body
    /// only in a large file is not read for a slice).
    private func storedRange(_ range: String, for request: OutgoingRequest, placement: Placement?) async throws
        -> StoredTransferResponse?
    {
        guard let placement, let key = HTTPCacheRules.cacheKey(of: request.url) else { return nil }
        let storage = try await self.storage(placement)
        let withoutRange = request.headers.filter { $0.name.lowercased() != "range" }
        let now = Date()
        guard let found = storage.entry(for: key), found.statusCode == 200,
            HTTPCacheRules.lookup(.useProtocolCachePolicy, stored: found.stored, requestFields: withoutRange, now: now) == .useStored,
            found.diskFile == nil || found.size <= storage.memoryLimit,
            case .range(let first, let last) = RangeRequest.parse(range, size: UInt64(max(0, found.bodyLength))),
            let bytes = try await storedBytes(of: found, in: storage), bytes.count == Int(found.bodyLength)
        else { return nil }
        var head = ResponseHead()
        head.httpVersion = "HTTP/1.1"
        head.statusCode = 206
        head.fields =
            HTTPCacheRules.servedFields(of: found.stored, now: now).filter { $0.name.lowercased() != "content-length" }
            + [("Content-Range", "bytes \(first)-\(last)/\(bytes.count)"), ("Content-Length", String(last - first + 1))]
        return StoredTransferResponse(use: .serve, head: head, body: .bytes(Array(bytes[Int(first)...Int(last)])))
    }

    /// The entry's body for a transfer: from memory; else read whole (from the store, or its file when it
    /// fits the memory tier) and kept in memory when it fits; else its file, opened for the transfer to read.
    private func transferBody(of entry: URLCacheStorage.Entry, in storage: URLCacheStorage) async throws -> StoredBody? {
        if let bytes = entry.memoryBody { return .bytes(bytes) }
        if let file = entry.diskFile, entry.size > storage.memoryLimit {
            return (try? StoredBodyFile(path: storage.path(of: file))).map { .file($0) }
        }
        guard let bytes = try await storedBytes(of: entry, in: storage) else { return nil }
        unlinkFiles(storage.promote(entry.url, body: bytes), in: storage)
        return .bytes(bytes)
    }

    /// A response the cache may keep, with its body as the completion kept it.
    struct Offer: Sendable {
        var placement: Placement
        var entry: URLCacheStorage.Entry
        var bodyBytes: [UInt8]?
        var bodyFile: String?

        /// The disk tier takes it: within 5% of the disk capacity, its URL at most
        /// `URLCacheStorage.maximumStoredURLLength` bytes.
        var fitsDiskTier: Bool {
            placement.diskCapacity > 0 && entry.size <= Int64(placement.diskCapacity / 20)
                && entry.url.utf8.count <= URLCacheStorage.maximumStoredURLLength
        }

        /// The policy the cache would store it with: on disk too when it fits the disk tier.
        var proposedPolicy: URLCacheStoragePolicy { fitsDiskTier ? .allowed : .allowedInMemoryOnly }
    }

    /// The response of a successful network load the cache may store (RFC 9111 §3; redirects, challenges and
    /// partial content are not stored), keyed by the URL that answered.
    static func offer(
        _ outcome: TransferOutcome, placement: Placement, bodyBytes: [UInt8]?, bodyFile: String?
    ) -> Offer? {
        guard outcome.error == nil, let head = outcome.response, let last = outcome.transactions.last, !last.isFromLocalCache,
            last.statusCode != 304, !(300...399).contains(head.statusCode), ![401, 407].contains(head.statusCode),
            let key = HTTPCacheRules.cacheKey(of: outcome.currentRequest.url),
            HTTPCacheRules.isStorable(
                method: outcome.currentRequest.method, requestFields: outcome.currentRequest.headers, statusCode: head.statusCode,
                responseFields: head.fields),
            let varyNames = HTTPCacheRules.varyNames(of: head.fields)
        else { return nil }
        let now = Date()
        let entry = URLCacheStorage.Entry(
            url: key, responseURL: outcome.currentRequest.url, statusCode: head.statusCode,
            fields: HTTPCacheRules.storableFields(head.fields),
            varyValues: HTTPCacheRules.varyValues(names: varyNames, requestFields: outcome.currentRequest.headers),
            requestTime: last.fetchStart, responseTime: last.responseTime, storedAt: now,
            userInfo: nil, bodyLength: outcome.progress.bytesReceived, memoryBody: nil, disk: nil, lastAccess: now)
        return Offer(placement: placement, entry: entry, bodyBytes: bodyBytes, bodyFile: bodyFile)
    }

    /// Stores an offer with `policy` in the tiers it fits: memory when within 5% of the memory capacity,
    /// disk (its file written now) when allowed and it fits the disk tier (`Offer.fitsDiskTier`). A response no tier
    /// takes is not stored, and an older one for its URL goes (it no longer describes the resource).
    func keep(_ offer: Offer, policy: URLCacheStoragePolicy, userInfo: JSONValue?) async throws {
        let storage = try await storage(offer.placement)
        var entry = offer.entry
        entry.userInfo = userInfo
        guard policy != .notAllowed else { return unlinkFiles(storage.remove(entry.url), in: storage) }
        if entry.size <= storage.memoryLimit {
            entry.memoryBody = try offer.bodyBytes ?? offer.bodyFile.map { try Self.read($0) } ?? []
        }
        if policy == .allowed, offer.fitsDiskTier {
            if entry.bodyLength <= URLCacheStorage.inStoreBodyLimit {
                entry.pendingBody = try entry.memoryBody ?? offer.bodyBytes ?? offer.bodyFile.map { try Self.read($0) } ?? []
                entry.disk = .inStore
            } else {
                let name = String(UInt64.random(in: 0...UInt64.max), radix: 36)
                try Self.place(bytes: entry.memoryBody ?? offer.bodyBytes, file: offer.bodyFile, at: storage.path(of: name))
                entry.disk = .file(name)
            }
        }
        guard entry.memoryBody != nil || entry.disk != nil else { return unlinkFiles(storage.remove(entry.url), in: storage) }
        unlinkFiles(storage.insert(entry), in: storage)
    }

    /// A 304 answered the cache's validation: the stored entry takes the merged fields and the new times.
    func revalidated(_ outcome: TransferOutcome, placement: Placement) async throws {
        guard outcome.error == nil, let head = outcome.response, let last = outcome.transactions.last, last.statusCode == 304,
            head.statusCode != 304, let key = HTTPCacheRules.cacheKey(of: outcome.currentRequest.url)
        else { return }
        try await storage(placement).revalidated(
            key, fields: HTTPCacheRules.storableFields(head.fields), requestTime: last.fetchStart,
            responseTime: last.responseTime)
    }

    /// RFC 9111 §4.4: a successful unsafe request (POST, PUT, DELETE, …) removes what is stored for its URL
    /// and for its same-origin `Location` and `Content-Location`.
    func invalidate(after outcome: TransferOutcome, placement: Placement) async throws {
        guard let head = outcome.response else { return }
        let urls = HTTPCacheRules.invalidatedURLs(
            method: outcome.currentRequest.method, statusCode: head.statusCode, url: outcome.currentRequest.url,
            responseFields: head.fields)
        guard !urls.isEmpty else { return }
        let storage = try await storage(placement)
        for url in urls { unlinkFiles(storage.remove(url), in: storage) }
    }

    private static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw POSIXError(.ENOENT) }
        return [UInt8](data)
    }

    /// Writes a body file: a hard link to the task's kept file when there is one (no copy; the task's file
    /// may be deleted later without touching the cache's), else the bytes.
    private static func place(bytes: [UInt8]?, file: String?, at path: String) throws {
        if let file, link(file, path) == 0 { return }
        if let file {
            try FileManager.default.copyItem(atPath: file, toPath: path)
        } else {
            try BodyFiles.write(bytes ?? [], to: path)
        }
    }
}

extension TransactionTiming {
    /// When the response's head arrived (RFC 9111's `response_time`).
    var responseTime: Date { fetchStart.addingTimeInterval(startTransfer) }
}
