import Foundation
public import JSONCodec

/// `configuration` as a client sends it: every field optional, defaults applied by `normalized(at:)`.
public struct SessionConfigurationInput: Decodable, Sendable {
    public var kind: SessionKind?
    public var identifier: String?
    public var httpAdditionalHeaders: [String: String]?
    public var timeoutIntervalForRequest: Double?
    public var timeoutIntervalForResource: Double?
    public var httpMaximumConnectionsPerHost: Int?
    public var httpShouldUsePipelining: Bool?
    public var requestCachePolicy: RequestCachePolicy?
    public var urlCache: Nullable<URLCacheInput>
    public var httpShouldSetCookies: Bool?
    public var httpCookieAcceptPolicy: HTTPCookieAcceptPolicy?
    public var httpCookieStorage: StorageScope?
    public var urlCredentialStorage: StorageScope?
    public var allowsCellularAccess: Bool?
    public var allowsExpensiveNetworkAccess: Bool?
    public var allowsConstrainedNetworkAccess: Bool?
    public var waitsForConnectivity: Bool?
    public var isDiscretionary: Bool?
    public var sessionSendsLaunchEvents: Bool?
    public var shouldUseExtendedBackgroundIdleMode: Bool?
    public var sharedContainerIdentifier: String?
    public var requiresDNSSECValidation: Bool?
    public var tlsMinimumSupportedProtocolVersion: TLSProtocolVersion?
    public var tlsMaximumSupportedProtocolVersion: TLSProtocolVersion?
    public var connectionProxyDictionary: Nullable<ProxyDictionary>
    public var networkServiceType: NetworkServiceType?
    public var multipathServiceType: MultipathServiceType?
    public var serverTrust: ServerTrustConfiguration?
    public var segments: SegmentsInput?
    public var rateLimit: RateLimitInput?

    public init(kind: SessionKind? = nil) {
        self.kind = kind
        self.urlCache = .absent
        self.connectionProxyDictionary = .absent
    }
}

extension SessionConfigurationInput {
    /// The configuration with URLSession's defaults for its kind filled in, or the first invalid field.
    ///
    /// - Parameter path: where `configuration` sits in the request body, for error field names.
    public func normalized(at path: String = "configuration") throws(RequestDecodingError) -> SessionConfiguration {
        let kind = self.kind ?? .default
        var result = SessionConfiguration(kind: kind)
        func field(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

        switch (kind, identifier) {
        case (.background, nil):
            throw .missingField(field("identifier"), "is required for background sessions")
        case (.background, let identifier?):
            try Validate.identifier(identifier, field: field("identifier"))
            result.identifier = identifier
        case (_, .some):
            throw .invalidValue(field("identifier"), "only background sessions have an identifier")
        case (_, nil):
            break
        }
        if let headers = httpAdditionalHeaders {
            try Validate.headerFields(headers, field: field("httpAdditionalHeaders"))
            result.httpAdditionalHeaders = headers
        }
        if let value = timeoutIntervalForRequest {
            try Validate.interval(value, field: field("timeoutIntervalForRequest"), max: 604_800)
            result.timeoutIntervalForRequest = value
        }
        if let value = timeoutIntervalForResource {
            try Validate.interval(value, field: field("timeoutIntervalForResource"), max: 2_592_000)
            result.timeoutIntervalForResource = value
        }
        if let value = httpMaximumConnectionsPerHost {
            try Validate.range(value, 1...64, field: field("httpMaximumConnectionsPerHost"))
            result.httpMaximumConnectionsPerHost = value
        }
        result.httpShouldUsePipelining = httpShouldUsePipelining ?? result.httpShouldUsePipelining
        result.requestCachePolicy = requestCachePolicy ?? result.requestCachePolicy
        switch urlCache {
        case .absent: break
        case .null: result.urlCache = nil
        case .value(let cache): result.urlCache = try Self.cache(cache, kind: kind, field: field)
        }
        result.httpShouldSetCookies = httpShouldSetCookies ?? result.httpShouldSetCookies
        result.httpCookieAcceptPolicy = httpCookieAcceptPolicy ?? result.httpCookieAcceptPolicy
        if let scope = httpCookieStorage {
            if kind == .ephemeral && scope == .shared {
                throw .invalidValue(field("httpCookieStorage"), "ephemeral sessions cannot use the shared (persistent) storage")
            }
            result.httpCookieStorage = scope
        }
        if let scope = urlCredentialStorage {
            if kind == .ephemeral && scope == .shared {
                throw .invalidValue(field("urlCredentialStorage"), "ephemeral sessions cannot use the shared (persistent) storage")
            }
            result.urlCredentialStorage = scope
        }
        result.allowsCellularAccess = allowsCellularAccess ?? true
        result.allowsExpensiveNetworkAccess = allowsExpensiveNetworkAccess ?? true
        result.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess ?? true
        if let waits = waitsForConnectivity {
            if kind == .background && !waits {
                throw .invalidValue(field("waitsForConnectivity"), "background sessions always wait for connectivity")
            }
            result.waitsForConnectivity = waits
        }
        result.isDiscretionary = isDiscretionary ?? false
        result.sessionSendsLaunchEvents = sessionSendsLaunchEvents ?? true
        result.shouldUseExtendedBackgroundIdleMode = shouldUseExtendedBackgroundIdleMode ?? false
        if let container = sharedContainerIdentifier {
            guard !container.isEmpty else { throw .invalidValue(field("sharedContainerIdentifier"), "must not be empty; null for none") }
            try Validate.text(container, field: field("sharedContainerIdentifier"), maxCharacters: 255)
            result.sharedContainerIdentifier = container
        }
        if requiresDNSSECValidation == true { throw Validate.dnssecRefusal(field: field("requiresDNSSECValidation")) }
        result.tlsMinimumSupportedProtocolVersion = tlsMinimumSupportedProtocolVersion ?? .TLSv12
        result.tlsMaximumSupportedProtocolVersion = tlsMaximumSupportedProtocolVersion ?? .TLSv13
        if result.tlsMinimumSupportedProtocolVersion > result.tlsMaximumSupportedProtocolVersion {
            let name =
                tlsMinimumSupportedProtocolVersion == nil ? "tlsMaximumSupportedProtocolVersion" : "tlsMinimumSupportedProtocolVersion"
            throw .invalidValue(field(name), "the minimum TLS version must not exceed the maximum")
        }
        switch connectionProxyDictionary {
        case .absent, .null: result.connectionProxyDictionary = nil
        case .value(let proxy):
            try Validate.proxy(proxy, field: field("connectionProxyDictionary"))
            result.connectionProxyDictionary = proxy
        }
        result.networkServiceType = networkServiceType ?? .default
        result.multipathServiceType = multipathServiceType ?? .none
        if let trust = serverTrust {
            try Self.validate(trust, field: field)
            result.serverTrust = trust
        }
        result.segments = try segments?.validated(at: field("segments"))
        result.rateLimit = try rateLimit?.validated(at: field("rateLimit"))
        return result
    }

    /// `urlCache`: the shared cache takes no capacities (they are the service's) and is not for ephemeral
    /// sessions, which keep nothing on disk; a private one gets URLCache's default capacities for those not given.
    private static func cache(
        _ input: URLCacheInput, kind: SessionKind, field: (String) -> String
    ) throws(RequestDecodingError) -> URLCacheConfiguration {
        switch input.storage {
        case .shared?:
            if kind == .ephemeral {
                throw .invalidValue(field("urlCache.storage"), "ephemeral sessions cannot use the shared (persistent) cache")
            }
            if input.memoryCapacity != nil || input.diskCapacity != nil {
                let name = input.memoryCapacity != nil ? "urlCache.memoryCapacity" : "urlCache.diskCapacity"
                throw .invalidValue(
                    field(name), "the shared cache's capacities are the service's (URLSESSIOND_SHARED_CACHE_MEMORY, _DISK)")
            }
            return .shared
        case .none?:
            throw .invalidValue(field("urlCache.storage"), "must be shared or private; null means no cache")
        case .private?, nil:
            let memory = input.memoryCapacity ?? 512_000
            let disk = input.diskCapacity ?? (kind == .ephemeral ? 0 : 10_000_000)
            try Validate.range(memory, 0...(1 << 30), field: field("urlCache.memoryCapacity"))
            try Validate.range(disk, 0...(1 << 40), field: field("urlCache.diskCapacity"))
            if kind == .ephemeral && disk != 0 {
                throw .invalidValue(field("urlCache.diskCapacity"), "must be 0: ephemeral sessions keep nothing on disk")
            }
            return .private(memoryCapacity: memory, diskCapacity: disk)
        }
    }

    /// `serverTrust`: at least one of its parts; 1 to 16 pins of `sha256//` and 32 bytes in base64; 1 to 16
    /// PEM certificates as anchors (at most 64 KiB each).
    private static func validate(_ trust: ServerTrustConfiguration, field: (String) -> String) throws(RequestDecodingError) {
        guard trust.pinnedPublicKeys != nil || trust.anchors != nil else {
            throw .invalidValue(field("serverTrust"), "give pinnedPublicKeys, anchors or both")
        }
        if let pins = trust.pinnedPublicKeys {
            guard (1...16).contains(pins.count) else {
                throw .invalidValue(field("serverTrust.pinnedPublicKeys"), "must hold 1 to 16 pins")
            }
            for (index, pin) in pins.enumerated() {
                guard pin.hasPrefix("sha256//"), let digest = Data(base64Encoded: String(pin.dropFirst(8))), digest.count == 32 else {
                    throw .invalidValue(
                        field("serverTrust.pinnedPublicKeys[\(index)]"), "must be sha256// and the base64 of a 32-byte SHA-256")
                }
            }
        }
        if let anchors = trust.anchors {
            guard (1...16).contains(anchors.count) else {
                throw .invalidValue(field("serverTrust.anchors"), "must hold 1 to 16 certificates")
            }
            for (index, anchor) in anchors.enumerated() {
                guard anchor.hasPrefix("-----BEGIN CERTIFICATE-----"), anchor.contains("-----END CERTIFICATE-----"),
                    anchor.utf8.count <= 65_536
                else { throw .invalidValue(field("serverTrust.anchors[\(index)]"), "must be one PEM certificate (at most 64 KiB)") }
            }
        }
    }
}
