public import Foundation

/// The decision taken before a request is sent: answer from the cache, revalidate, or go to the network.
extension HTTPCacheRules {
    /// Fields with which a request states its own condition or range: the cache cannot answer those for it (§4.3.2
    /// would need the stored response's full comparison), so such a request goes to the origin as it is.
    static let conditionalAndRangeNames = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"]

    /// The fields `reloadIgnoringLocalAndRemoteCacheData` adds so intermediaries do not answer from their caches either:
    /// `Cache-Control: no-cache` and `Pragma: no-cache`.
    public static let reloadFields: HTTPFields = [(name: "Cache-Control", value: "no-cache"), (name: "Pragma", value: "no-cache")]

    /// The decision for a request (its fields as they will be sent) given the response stored under its URL (nil: none),
    /// at `now`:
    /// - a stored response whose Vary does not match counts as none.
    /// - a request that carries its own conditional or range fields (If-None-Match, If-Modified-Since, If-Match,
    ///   If-Unmodified-Since, If-Range, Range) is passed through: `.load` (`.fail` under returnCacheDataDontLoad or
    ///   `only-if-cached`, which forbid contacting the origin).
    /// - useProtocolCachePolicy: `.useStored` when the stored response may be used without validation (§4.2 and §5.2.1:
    ///   no `no-cache` in the response; no `no-cache` in the request nor `Pragma: no-cache` in a request without
    ///   Cache-Control; fresh — age < freshness lifetime — and within the request's `max-age` and `min-fresh`; or stale
    ///   but within the request's `max-stale` when the response has no `must-revalidate`); else `.validate(validators)`
    ///   when it has validators; else `.load`. Request `only-if-cached`: `.useStored` if usable as above, else `.fail`.
    /// - reloadIgnoringLocalCacheData, reloadIgnoringLocalAndRemoteCacheData: `.load`.
    /// - returnCacheDataElseLoad: `.useStored` whenever a (matching) stored response exists, however old; else `.load`.
    /// - returnCacheDataDontLoad: `.useStored` when one exists, else `.fail`.
    /// - reloadRevalidatingCacheData: `.validate` when one exists with validators; else `.load`.
    public static func lookup(_ mode: CacheMode, stored: StoredResponse?, requestFields: HTTPFields, now: Date) -> CacheLookup {
        let candidate = stored.flatMap { varyMatches($0, requestFields: requestFields) ? $0 : nil }
        let request = CacheControl(fields: requestFields)
        let mayNotLoad = mode == .returnCacheDataDontLoad || (mode == .useProtocolCachePolicy && request.onlyIfCached)
        if conditionalAndRangeNames.contains(where: { FieldValues.contains($0, in: requestFields) }) {
            return mayNotLoad ? .fail : .load
        }
        switch mode {
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData:
            return .load
        case .returnCacheDataElseLoad:
            return candidate == nil ? .load : .useStored
        case .returnCacheDataDontLoad:
            return candidate == nil ? .fail : .useStored
        case .reloadRevalidatingCacheData:
            return candidate.map(revalidation) ?? .load
        case .useProtocolCachePolicy:
            guard let candidate else { return request.onlyIfCached ? .fail : .load }
            if isUsableWithoutValidation(candidate, request: request, requestFields: requestFields, now: now) { return .useStored }
            return request.onlyIfCached ? .fail : revalidation(of: candidate)
        }
    }

    /// `.validate` with the stored response's validators, or `.load` when it has none to offer.
    static func revalidation(of stored: StoredResponse) -> CacheLookup {
        let conditions = validators(for: stored)
        return conditions.isEmpty ? .load : .validate(conditions)
    }

    /// §4.2 and §5.2.1: whether `stored` may answer this request without asking the origin.
    static func isUsableWithoutValidation(_ stored: StoredResponse, request: CacheControl, requestFields: HTTPFields, now: Date) -> Bool {
        let response = CacheControl(fields: stored.fields)
        guard !response.noCache, !request.noCache else { return false }
        // RFC 9111 §5.4: `Pragma: no-cache` stands for `Cache-Control: no-cache` only when the latter is absent.
        if !FieldValues.contains("Cache-Control", in: requestFields),
            FieldValues.listElements("Pragma", in: requestFields).contains(where: { $0.lowercased() == "no-cache" })
        {
            return false
        }
        let lifetime = freshnessLifetime(of: stored)
        let age = currentAge(of: stored, now: now)
        if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return false }
        if let minFresh = request.minFresh, lifetime - age < TimeInterval(minFresh) { return false }
        if age < lifetime { return true }
        guard !response.mustRevalidate, let maxStale = request.maxStale else { return false }
        return age - lifetime <= TimeInterval(maxStale)
    }
}
