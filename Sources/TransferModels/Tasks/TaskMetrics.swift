public import Foundation

/// `URLSessionTaskMetrics`: the task's interval, its redirects, and one entry per request attempt.
public struct TaskMetrics: Codable, Sendable, Hashable {
    /// `DateInterval` from the task's start to its completion.
    public struct Interval: Codable, Sendable, Hashable {
        public var start: Date
        /// Seconds.
        public var duration: Double

        public init(start: Date, duration: Double) {
            self.start = start
            self.duration = duration
        }
    }

    public var taskInterval: Interval
    public var redirectCount: Int
    /// In order: each redirect, retry or cache load is one transaction.
    public var transactionMetrics: [TaskTransactionMetrics]

    public init(taskInterval: Interval, redirectCount: Int, transactionMetrics: [TaskTransactionMetrics]) {
        self.taskInterval = taskInterval
        self.redirectCount = redirectCount
        self.transactionMetrics = transactionMetrics
    }
}

/// `URLSessionTaskMetrics.ResourceFetchType`.
public enum ResourceFetchType: String, Codable, Sendable, CaseIterable {
    case unknown, networkLoad, serverPush, localCache
}

/// `URLSessionTaskTransactionMetrics`: one request attempt. Dates are nil for the phases that did not
/// happen (no DNS lookup on a reused connection, no TLS for `http`); every property is written.
public struct TaskTransactionMetrics: Codable, Sendable, Hashable {
    public var request: URLRequestSnapshot
    public var response: HTTPResponseSnapshot?
    public var fetchStartDate: Date?
    public var domainLookupStartDate: Date?
    public var domainLookupEndDate: Date?
    public var connectStartDate: Date?
    public var secureConnectionStartDate: Date?
    public var secureConnectionEndDate: Date?
    public var connectEndDate: Date?
    public var requestStartDate: Date?
    public var requestEndDate: Date?
    public var responseStartDate: Date?
    public var responseEndDate: Date?
    /// ALPN name: `http/1.1`, `h2`.
    public var networkProtocolName: String?
    public var isProxyConnection: Bool
    public var isReusedConnection: Bool
    public var resourceFetchType: ResourceFetchType
    public var countOfRequestHeaderBytesSent: Int64
    public var countOfRequestBodyBytesSent: Int64
    public var countOfRequestBodyBytesBeforeEncoding: Int64
    public var countOfResponseHeaderBytesReceived: Int64
    public var countOfResponseBodyBytesReceived: Int64
    public var countOfResponseBodyBytesAfterDecoding: Int64
    public var localAddress: String?
    public var localPort: Int?
    public var remoteAddress: String?
    public var remotePort: Int?
    public var negotiatedTLSProtocolVersion: TLSProtocolVersion?
    /// The `tls_ciphersuite_t` case name, e.g. `AES_128_GCM_SHA256`.
    public var negotiatedTLSCipherSuite: String?
    public var isCellular: Bool
    public var isExpensive: Bool
    public var isConstrained: Bool
    public var isMultipath: Bool
    /// Beyond Apple: the network path the request left by (`GET /v1/networks`) and its interface (or
    /// source address); null for a response from the cache.
    public var networkPath: String?
    public var networkInterface: String?

    /// A network load of `request` with no phase timed yet and every counter at zero; the engine fills
    /// in what it measures.
    public init(request: URLRequestSnapshot, resourceFetchType: ResourceFetchType = .networkLoad) {
        self.request = request
        self.isProxyConnection = false
        self.isReusedConnection = false
        self.resourceFetchType = resourceFetchType
        self.countOfRequestHeaderBytesSent = 0
        self.countOfRequestBodyBytesSent = 0
        self.countOfRequestBodyBytesBeforeEncoding = 0
        self.countOfResponseHeaderBytesReceived = 0
        self.countOfResponseBodyBytesReceived = 0
        self.countOfResponseBodyBytesAfterDecoding = 0
        self.isCellular = false
        self.isExpensive = false
        self.isConstrained = false
        self.isMultipath = false
    }

    enum CodingKeys: String, CodingKey {
        case request, response, fetchStartDate, domainLookupStartDate, domainLookupEndDate, connectStartDate
        case secureConnectionStartDate, secureConnectionEndDate, connectEndDate, requestStartDate, requestEndDate
        case responseStartDate, responseEndDate, networkProtocolName, isProxyConnection, isReusedConnection
        case resourceFetchType, countOfRequestHeaderBytesSent, countOfRequestBodyBytesSent
        case countOfRequestBodyBytesBeforeEncoding, countOfResponseHeaderBytesReceived
        case countOfResponseBodyBytesReceived, countOfResponseBodyBytesAfterDecoding, localAddress, localPort
        case remoteAddress, remotePort, negotiatedTLSProtocolVersion, negotiatedTLSCipherSuite
        case isCellular, isExpensive, isConstrained, isMultipath, networkPath, networkInterface
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(request, forKey: .request)
        try c.encode(response, forKey: .response)
        try c.encode(fetchStartDate, forKey: .fetchStartDate)
        try c.encode(domainLookupStartDate, forKey: .domainLookupStartDate)
        try c.encode(domainLookupEndDate, forKey: .domainLookupEndDate)
        try c.encode(connectStartDate, forKey: .connectStartDate)
        try c.encode(secureConnectionStartDate, forKey: .secureConnectionStartDate)
        try c.encode(secureConnectionEndDate, forKey: .secureConnectionEndDate)
        try c.encode(connectEndDate, forKey: .connectEndDate)
        try c.encode(requestStartDate, forKey: .requestStartDate)
        try c.encode(requestEndDate, forKey: .requestEndDate)
        try c.encode(responseStartDate, forKey: .responseStartDate)
        try c.encode(responseEndDate, forKey: .responseEndDate)
        try c.encode(networkProtocolName, forKey: .networkProtocolName)
        try c.encode(isProxyConnection, forKey: .isProxyConnection)
        try c.encode(isReusedConnection, forKey: .isReusedConnection)
        try c.encode(resourceFetchType, forKey: .resourceFetchType)
        try c.encode(countOfRequestHeaderBytesSent, forKey: .countOfRequestHeaderBytesSent)
        try c.encode(countOfRequestBodyBytesSent, forKey: .countOfRequestBodyBytesSent)
        try c.encode(countOfRequestBodyBytesBeforeEncoding, forKey: .countOfRequestBodyBytesBeforeEncoding)
        try c.encode(countOfResponseHeaderBytesReceived, forKey: .countOfResponseHeaderBytesReceived)
        try c.encode(countOfResponseBodyBytesReceived, forKey: .countOfResponseBodyBytesReceived)
        try c.encode(countOfResponseBodyBytesAfterDecoding, forKey: .countOfResponseBodyBytesAfterDecoding)
        try c.encode(localAddress, forKey: .localAddress)
        try c.encode(localPort, forKey: .localPort)
        try c.encode(remoteAddress, forKey: .remoteAddress)
        try c.encode(remotePort, forKey: .remotePort)
        try c.encode(negotiatedTLSProtocolVersion, forKey: .negotiatedTLSProtocolVersion)
        try c.encode(negotiatedTLSCipherSuite, forKey: .negotiatedTLSCipherSuite)
        try c.encode(isCellular, forKey: .isCellular)
        try c.encode(isExpensive, forKey: .isExpensive)
        try c.encode(isConstrained, forKey: .isConstrained)
        try c.encode(isMultipath, forKey: .isMultipath)
        try c.encode(networkPath, forKey: .networkPath)
        try c.encode(networkInterface, forKey: .networkInterface)
    }
}
