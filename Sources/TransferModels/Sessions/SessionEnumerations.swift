/// `URLSessionConfiguration`'s three constructors.
public enum SessionKind: String, Codable, Sendable, CaseIterable {
    case `default`, ephemeral, background
}

/// `URLSession`'s lifecycle as the API reports it.
public enum SessionState: String, Codable, Sendable, CaseIterable {
    case valid, invalidating, invalidated
}

/// `NSURLRequest.CachePolicy`, by its Swift case names.
public enum RequestCachePolicy: String, Codable, Sendable, CaseIterable {
    case useProtocolCachePolicy
    case reloadIgnoringLocalCacheData
    case reloadIgnoringLocalAndRemoteCacheData
    case returnCacheDataElseLoad
    case returnCacheDataDontLoad
    case reloadRevalidatingCacheData
}

/// `HTTPCookie.AcceptPolicy`.
public enum HTTPCookieAcceptPolicy: String, Codable, Sendable, CaseIterable {
    case always, never, onlyFromMainDocumentDomain
}

/// Which storage a session's cookies or credentials live in: the tenant's persistent one (`shared`,
/// like `HTTPCookieStorage.shared`), one private to the session in memory, or none at all.
public enum StorageScope: String, Codable, Sendable, CaseIterable {
    case shared, `private`, none
}

/// `tls_protocol_version_t`.
public enum TLSProtocolVersion: String, Codable, Sendable, CaseIterable, Comparable {
    case TLSv10, TLSv11, TLSv12, TLSv13

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// `NSURLRequest.NetworkServiceType` (the deprecated `voip` left out).
public enum NetworkServiceType: String, Codable, Sendable, CaseIterable {
    case `default`, video, background, voice, responsiveData, avStreaming, responsiveAV, callSignaling
}

/// `URLSessionConfiguration.MultipathServiceType`: whether the session's sockets are Multipath TCP, and how
/// their extra subflows are used (docs/ARCHITECTURE.md, "Multipath TCP").
public enum MultipathServiceType: String, Codable, Sendable, CaseIterable {
    case none, handover, interactive, aggregate
}
