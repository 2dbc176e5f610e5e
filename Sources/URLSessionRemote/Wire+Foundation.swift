internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

extension WireResponse {
    /// The `HTTPURLResponse` the service received from the origin.
    var httpURLResponse: HTTPURLResponse? {
        guard let url = URL(string: self.url) else { return nil }
        return HTTPURLResponse(url: url, statusCode: self.statusCode, httpVersion: "HTTP/1.1", headerFields: self.allHeaderFields)
    }
}

extension WireRequest {
    var urlRequest: URLRequest? {
        guard let url = URL(string: self.url) else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = self.httpMethod
        request.allHTTPHeaderFields = self.allHTTPHeaderFields
        if let timeout = self.timeoutInterval { request.timeoutInterval = timeout }
        request.httpBody = self.httpBody?.base64.flatMap { Data(base64Encoded: $0) }
        return request
    }
}

extension WireError {
    /// The error URLSession would have given: a `URLError` with the service's code and userInfo
    /// (resume data as `Data` under `Self.resumeDataKey`, so `URLError.downloadTaskResumeData`
    /// works), or an NSError of another domain (`NSPOSIXErrorDomain` for an oversized WebSocket message).
    var foundationError: any Error {
        var userInfo: [String: Any] = [:]
        for (key, value) in self.userInfo ?? [:] {
            userInfo[key] = value.foundationValue
        }
        if let text = self.localizedDescription { userInfo[NSLocalizedDescriptionKey] = text }
        if let failing = self.userInfo?[Self.failingURLStringKey]?.stringValue, let url = URL(string: failing) {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        if let resumeData = self.userInfo?[Self.resumeDataKey]?.stringValue {
            userInfo[Self.resumeDataKey] = Data(resumeData.utf8)
        }
        if let underlying = self.underlying, underlying != .null {
            userInfo["underlying"] = underlying.foundationValue
        }
        guard self.domain == NSURLErrorDomain else {
            return NSError(domain: self.domain, code: self.code, userInfo: userInfo)
        }
        #if canImport(FoundationNetworking)
            let code = URLError.Code(rawValue: self.code) ?? .unknown
        #else
            let code = URLError.Code(rawValue: self.code)
        #endif
        return URLError(code, userInfo: userInfo)
    }

    /// `NSURLSessionDownloadTaskResumeData`, which FoundationNetworking does not declare.
    static let resumeDataKey = "NSURLSessionDownloadTaskResumeData"
    /// `NSURLErrorFailingURLStringErrorKey`'s value, without the deprecation.
    static let failingURLStringKey = "NSErrorFailingURLStringKey"
}

extension URLRequest {
    /// The `request` object of `POST /v1/sessions/{id}/tasks`.
    var wireObject: [String: Any] {
        var object: [String: Any] = ["url": self.url?.absoluteString ?? ""]
        object["httpMethod"] = self.httpMethod
        if let fields = self.allHTTPHeaderFields, !fields.isEmpty { object["allHTTPHeaderFields"] = fields }
        if let body = self.httpBody { object["httpBody"] = ["base64": body.base64EncodedString()] }
        // URLRequest's default (60 s) is not sent: the session's timeoutIntervalForRequest applies then, as in
        // URLSession, where a request's default timeout defers to the configuration's.
        if self.timeoutInterval != 60 { object["timeoutInterval"] = self.timeoutInterval }
        if self.cachePolicy != .useProtocolCachePolicy {
            object["cachePolicy"] = RemoteURLSessionConfiguration.name(of: self.cachePolicy)
        }
        if !self.httpShouldHandleCookies { object["httpShouldHandleCookies"] = false }
        if !self.allowsCellularAccess { object["allowsCellularAccess"] = false }
        return object
    }
}
