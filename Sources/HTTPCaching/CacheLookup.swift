/// How a request uses the cache: URLSession's `NSURLRequest.CachePolicy`, by its Swift names (the same
/// raw values as the wire's `RequestCachePolicy`, which this rules-only module does not depend on).
public enum CacheMode: String, Sendable, CaseIterable {
    case useProtocolCachePolicy
    case reloadIgnoringLocalCacheData
    case reloadIgnoringLocalAndRemoteCacheData
    case returnCacheDataElseLoad
    case returnCacheDataDontLoad
    case reloadRevalidatingCacheData
}

/// What to do with a request before it is sent.
public enum CacheLookup: Sendable, Equatable {
    /// Serve the stored response without contacting the origin.
    case useStored
    /// Send the request with these conditional fields; a 304 means the stored response (merged) is the answer.
    case validate(HTTPFields)
    /// Serve the stale stored response now, and revalidate it in the background with these conditional
    /// fields (none: load it again): RFC 5861 §3 `stale-while-revalidate`.
    case useStoredAndRevalidate(HTTPFields)
    /// Send the request; nothing stored is used.
    case load
    /// Neither: `returnCacheDataDontLoad` (or `only-if-cached`) without a usable stored response.
    case fail

    /// By hand because tuples are not `Equatable`: validations are equal when their fields are, in order, exactly.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.useStored, .useStored), (.load, .load), (.fail, .fail):
            return true
        case (.validate(let left), .validate(let right)), (.useStoredAndRevalidate(let left), .useStoredAndRevalidate(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        default:
            return false
        }
    }
}
