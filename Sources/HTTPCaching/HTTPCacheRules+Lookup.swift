public import Foundation

/// The decision taken before a request is sent: answer from the cache, revalidate, or go to the network.
extension HTTPCacheRules {
    /// Fields with which a request states its own condition or range: the cache cannot answer those for it (§4.3.2
    /// would need the stored response's full comparison), so such a request goes to the origin as it is.
    static let conditionalNames = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range"]
    static let conditionalAndRangeNames = conditionalNames + ["Range"]

    /// The `Range` of a request that states no condition of its own (no `If-…` field): one a complete stored
    /// response may answer (§3.4 allows a cache to satisfy a range request from it); nil otherwise.
    public static func unconditionalRange(in requestFields: HTTPFields) -> String? {
        guard !conditionalNames.contains(where: { FieldValues.contains($0, in: requestFields) }) else { return nil }
        return FieldValues.all("Range", in: requestFields).first
    }

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
    ///   when it has validators; else `.load`. A stale response within its `stale-while-revalidate` window (RFC 5861
    ///   §3), where nothing above forbids reuse without validation (`no-cache`, `must-revalidate`, the request's
    ///   `max-age`): `.useStoredAndRevalidate(validators)`. Request `only-if-cached`: `.useStored` if usable as above,
    ///   else `.fail`.
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
            if request.onlyIfCached { return .fail }
            if isWithinStaleWhileRevalidate(candidate, request: request, requestFields: requestFields, now: now) {
                return .useStoredAndRevalidate(validators(for: candidate))
            }
            return revalidation(of: candidate)
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
        guard !forbidsReuse(response: response, request: request, requestFields: requestFields) else { return false }
        let lifetime = freshnessLifetime(of: stored)
        let age = currentAge(of: stored, now: now)
        if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return false }
        if let minFresh = request.minFresh, lifetime - age < TimeInterval(minFresh) { return false }
        if age < lifetime { return true }
        guard !response.mustRevalidate, let maxStale = request.maxStale else { return false }
        return age - lifetime <= TimeInterval(maxStale)
    }

    /// RFC 5861 §3: a stale `stored` response is within `stale-while-revalidate` seconds past its freshness,
    /// and nothing forbids serving it without validation first (`no-cache` either side, `Pragma: no-cache`,
    /// `must-revalidate`, a request `max-age` it exceeds).
    static func isWithinStaleWhileRevalidate(_ stored: StoredResponse, request: CacheControl, requestFields: HTTPFields, now: Date) -> Bool
    {
        let response = CacheControl(fields: stored.fields)
        guard let window = response.staleWhileRevalidate, window > 0, !response.mustRevalidate,
            !forbidsReuse(response: response, request: request, requestFields: requestFields)
        else { return false }
        let age = currentAge(of: stored, now: now)
        if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return false }
        let staleness = age - freshnessLifetime(of: stored)
        return staleness >= 0 && staleness < TimeInterval(window)
    }

    /// `no-cache` in the response or the request, or `Pragma: no-cache` standing for it (RFC 9111 §5.4: only
    /// in a request without Cache-Control): the stored response needs validation before any use.
    private static func forbidsReuse(response: CacheControl, request: CacheControl, requestFields: HTTPFields) -> Bool {
        if response.noCache || request.noCache { return true }
        return !FieldValues.contains("Cache-Control", in: requestFields)
            && FieldValues.listElements("Pragma", in: requestFields).contains(where: { $0.lowercased() == "no-cache" })
    }
}
