import JSONCodec

// A download's other sources (beyond URLSession): `mirrors`, `expectedLength` and `metalink`.
//
// Rules JSON Schema cannot say: download tasks only, never with `resumeData`; `mirrors` are absolute
// http(s) URLs, distinct, at most 16, the first the request's own URL (the order is the preference);
// `expectedLength` only with `mirrors` or `metalink`; `metalink` instead of `mirrors` and of
// `request.url` (the request, when given, lends the rest: method, header fields, timeout).

extension TaskCreateRequest {
    /// The request as the task takes it: a metalink task's request gets its URL from the metalink — its
    /// best URL when the document was read (a blob), else the document's own URL (fetched first).
    func requestWithSources(metalink contents: MetalinkContents?) throws(RequestDecodingError) -> URLRequestInput? {
        guard let metalink else { return request }
        try Self.checkShape(of: metalink, contents: contents)
        if request?.url != nil {
            throw .invalidValue("request.url", "a metalink task takes its URLs from the metalink: leave request.url out")
        }
        var input = request ?? URLRequestInput()
        input.url = contents?.urls.first ?? metalink.url
        return input
    }

    /// The task's sources, or nil when it has none; `digest` becomes the metalink's whole-file hash when
    /// the task gave none (and must equal it when it did).
    func validatedSources(
        kind: TaskKind, requestURL: String?, metalink contents: MetalinkContents?, digest: inout String?
    ) throws(RequestDecodingError) -> TransferSources? {
        guard mirrors != nil || metalink != nil || expectedLength != nil else { return nil }
        let field = mirrors != nil ? "mirrors" : metalink != nil ? "metalink" : "expectedLength"
        guard kind == .download else { throw .invalidValue(field, "only download tasks have mirrors") }
        guard resumeData == nil else { throw .invalidValue(field, "a download made from resumeData has its own request") }
        if let expectedLength {
            guard mirrors != nil || metalink != nil else { throw .invalidValue("expectedLength", "is for mirrors or a metalink") }
            try Validate.range(expectedLength, 0...Int64.max, field: "expectedLength")
        }
        if let metalink {
            guard mirrors == nil else { throw .invalidValue("mirrors", "a metalink task takes its mirrors from the metalink") }
            return try validatedMetalink(metalink, contents: contents, digest: &digest)
        }
        guard let mirrors, let requestURL else { return nil }
        guard (1...TransferSources.maximumMirrors).contains(mirrors.count) else {
            throw .invalidValue("mirrors", "must list 1 to \(TransferSources.maximumMirrors) URLs")
        }
        for (index, url) in mirrors.enumerated() {
            try Validate.httpURL(url, field: "mirrors[\(index)]")
            if mirrors[..<index].contains(url) { throw .invalidValue("mirrors[\(index)]", "repeats an earlier mirror") }
        }
        guard mirrors[0] == requestURL else {
            throw .invalidValue("mirrors[0]", "must be the request's URL (the first source, the others in order after it)")
        }
        return TransferSources(mirrors: mirrors, expectedLength: expectedLength)
    }

    /// `metalink` is `{"url"}` with an http(s) URL, or `{"blobId"}` of a blob the caller read.
    static func checkShape(of metalink: MetalinkInput, contents: MetalinkContents?) throws(RequestDecodingError) {
        switch (metalink.url, metalink.blobId) {
        case (let url?, nil):
            try Validate.httpURL(url, field: "metalink.url")
        case (nil, let blobId?):
            guard ResourceID.isWellFormed(blobId, prefix: "blb") else { throw .invalidValue("metalink.blobId", "is not a blob id") }
            // The control plane reads the blob before validation; without its contents nothing can be checked.
            guard contents != nil else { throw .invalidValue("metalink.blobId", "could not be read") }
        default:
            throw .invalidValue("metalink", "must have exactly one of \"url\" or \"blobId\"")
        }
    }

    private func validatedMetalink(
        _ metalink: MetalinkInput, contents: MetalinkContents?, digest: inout String?
    ) throws(RequestDecodingError) -> TransferSources {
        try Self.checkShape(of: metalink, contents: contents)
        guard let contents else { return TransferSources(mirrors: [], expectedLength: expectedLength, metalink: metalink) }
        try agree(contents, digest: &digest)
        return TransferSources(
            mirrors: contents.urls, expectedLength: expectedLength ?? contents.size, pieces: contents.pieces, metalink: metalink)
    }

    /// The task's own `expectedLength` and `expectedDigest` must not contradict the metalink's.
    func agree(_ contents: MetalinkContents, digest: inout String?) throws(RequestDecodingError) {
        if let size = contents.size, let expectedLength, size != expectedLength {
            throw .invalidValue("expectedLength", "differs from the metalink's size (\(size))")
        }
        if let metalinkDigest = contents.digest {
            if let digest, digest != metalinkDigest {
                throw .invalidValue("expectedDigest", "differs from the metalink's sha-256 hash")
            }
            digest = metalinkDigest
        }
    }
}
