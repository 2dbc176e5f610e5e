internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

extension RemoteURLSessionConfiguration {
    /// The `configuration` object of `POST /v1/sessions`: only the properties that were set.
    var wireObject: [String: Any] {
        var object: [String: Any] = ["kind": self.kind.rawValue]
        object["identifier"] = self.identifier
        object["httpAdditionalHeaders"] = self.httpAdditionalHeaders
        object["timeoutIntervalForRequest"] = self.timeoutIntervalForRequest
        object["timeoutIntervalForResource"] = self.timeoutIntervalForResource
        object["httpMaximumConnectionsPerHost"] = self.httpMaximumConnectionsPerHost
        object["httpShouldUsePipelining"] = self.httpShouldUsePipelining
        object["requestCachePolicy"] = self.requestCachePolicy.map(Self.name(of:))
        object["httpShouldSetCookies"] = self.httpShouldSetCookies
        object["httpCookieAcceptPolicy"] = self.httpCookieAcceptPolicy.map(Self.name(of:))
        object["allowsCellularAccess"] = self.allowsCellularAccess
        object["allowsExpensiveNetworkAccess"] = self.allowsExpensiveNetworkAccess
        object["allowsConstrainedNetworkAccess"] = self.allowsConstrainedNetworkAccess
        object["waitsForConnectivity"] = self.waitsForConnectivity
        object["isDiscretionary"] = self.isDiscretionary
        object["sessionSendsLaunchEvents"] = self.sessionSendsLaunchEvents
        object["tlsMinimumSupportedProtocolVersion"] = self.tlsMinimumSupportedProtocolVersion?.rawValue
        object["tlsMaximumSupportedProtocolVersion"] = self.tlsMaximumSupportedProtocolVersion?.rawValue
        object["httpCookieStorage"] = self.httpCookieStorage?.rawValue
        object["urlCredentialStorage"] = self.urlCredentialStorage?.rawValue
        return object
    }

    /// The service's `RequestCachePolicy` name: the Swift case.
    static func name(of policy: URLRequest.CachePolicy) -> String {
        switch policy {
        case .reloadIgnoringLocalCacheData: "reloadIgnoringLocalCacheData"
        case .reloadIgnoringLocalAndRemoteCacheData: "reloadIgnoringLocalAndRemoteCacheData"
        case .returnCacheDataElseLoad: "returnCacheDataElseLoad"
        case .returnCacheDataDontLoad: "returnCacheDataDontLoad"
        case .reloadRevalidatingCacheData: "reloadRevalidatingCacheData"
        default: "useProtocolCachePolicy"
        }
    }

    static func name(of policy: HTTPCookie.AcceptPolicy) -> String {
        switch policy {
        case .always: "always"
        case .never: "never"
        default: "onlyFromMainDocumentDomain"
        }
    }
}
