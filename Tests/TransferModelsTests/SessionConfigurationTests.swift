import Foundation
import JSONCodec
import Testing
import TransferModels

@Suite("Session configuration: URLSession defaults per kind, validation naming the field")
struct SessionConfigurationTests {
    private func normalize(_ json: String) throws(RequestDecodingError) -> SessionConfiguration {
        try StrictJSONDecoder().decode(SessionConfigurationInput.self, from: Array(json.utf8)).normalized()
    }

    @Test func defaultKindHasURLSessionDefaults() throws {
        let configuration = try normalize("{}")
        #expect(configuration.kind == .default)
        #expect(configuration.identifier == nil)
        #expect(configuration.timeoutIntervalForRequest == 60)
        #expect(configuration.timeoutIntervalForResource == 604_800)
        #expect(configuration.httpMaximumConnectionsPerHost == 6)
        #expect(configuration.requestCachePolicy == .useProtocolCachePolicy)
        #expect(configuration.urlCache == .shared)
        #expect(configuration.httpCookieStorage == .shared)
        #expect(configuration.httpCookieAcceptPolicy == .onlyFromMainDocumentDomain)
        #expect(configuration.waitsForConnectivity == false)
        #expect(configuration.tlsMinimumSupportedProtocolVersion == .TLSv12)
        #expect(configuration.tlsMaximumSupportedProtocolVersion == .TLSv13)
        #expect(configuration.connectionProxyDictionary == nil)
    }

    @Test func ephemeralKeepsEverythingInMemory() throws {
        let configuration = try normalize(#"{"kind": "ephemeral"}"#)
        #expect(configuration.urlCache == .private(memoryCapacity: 512_000, diskCapacity: 0))
        #expect(configuration.httpCookieStorage == .private)
        #expect(configuration.urlCredentialStorage == .private)
    }

    @Test func backgroundNeedsAnIdentifierAndAlwaysWaits() throws {
        let configuration = try normalize(#"{"kind": "background", "identifier": "com.example.nightly"}"#)
        #expect(configuration.identifier == "com.example.nightly")
        #expect(configuration.waitsForConnectivity)
    }

    @Test func nullCacheMeansNoCacheWhileAbsentMeansTheDefault() throws {
        #expect(try normalize(#"{"urlCache": null}"#).urlCache == nil)
        #expect(try normalize("{}").urlCache == .shared)
        #expect(
            try normalize(#"{"urlCache": {"memoryCapacity": 1, "diskCapacity": 2}}"#).urlCache
                == .private(memoryCapacity: 1, diskCapacity: 2))
        #expect(try normalize(#"{"urlCache": {"storage": "private"}}"#).urlCache == .standard)
        #expect(try normalize(#"{"urlCache": {"storage": "shared"}}"#).urlCache == .shared)
    }

    @Test func theSharedCacheTakesNoCapacitiesAndNoEphemeralSession() throws {
        for body in [
            #"{"urlCache": {"storage": "shared", "memoryCapacity": 1}}"#, #"{"kind": "ephemeral", "urlCache": {"storage": "shared"}}"#,
            #"{"urlCache": {"storage": "none"}}"#,
        ] {
            #expect(throws: RequestDecodingError.self) { try normalize(body) }
        }
    }

    @Test func storedConfigurationsFromBeforeMultipathReadAsNone() throws {
        var stored = try #require(
            try JSONSerialization.jsonObject(with: Data(try WireJSON.encode(SessionConfiguration(kind: .default)))) as? [String: Any])
        stored["multipathServiceType"] = nil
        let data = try JSONSerialization.data(withJSONObject: stored)
        #expect(try JSONDecoder().decode(SessionConfiguration.self, from: data).multipathServiceType == MultipathServiceType.none)
        #expect(try normalize(#"{"multipathServiceType": "aggregate"}"#).multipathServiceType == .aggregate)
    }

    /// `sharedContainerIdentifier` is kept as given (with no effect); `requiresDNSSECValidation` accepts only
    /// false, the one thing this service can do; configurations stored before either read as null and false.
    @Test func compatibilityPropertiesAreKeptOrRefusedAndOldRowsRead() throws {
        let configuration = try normalize(#"{"sharedContainerIdentifier": "group.com.example.app", "requiresDNSSECValidation": false}"#)
        #expect(configuration.sharedContainerIdentifier == "group.com.example.app")
        #expect(configuration.requiresDNSSECValidation == false)
        var stored = try #require(
            try JSONSerialization.jsonObject(with: Data(try WireJSON.encode(configuration))) as? [String: Any])
        #expect(stored["sharedContainerIdentifier"] as? String == "group.com.example.app")
        #expect(
            try JSONDecoder().decode(SessionConfiguration.self, from: try JSONSerialization.data(withJSONObject: stored)) == configuration)
        stored["sharedContainerIdentifier"] = nil
        stored["requiresDNSSECValidation"] = nil
        let old = try JSONDecoder().decode(SessionConfiguration.self, from: try JSONSerialization.data(withJSONObject: stored))
        #expect(old.sharedContainerIdentifier == nil && old.requiresDNSSECValidation == false)
    }

    /// A request may ask for DNSSEC as its session may: false is accepted, true refused naming the field.
    @Test func aRequestAsksForDNSSECOnlyAsFalse() throws {
        let session = SessionConfiguration(kind: .default)
        func task(_ requires: Bool) throws -> TaskCreateRequest {
            let json = #"{"kind": "data", "request": {"url": "https://origin.example/", "requiresDNSSECValidation": \#(requires)}}"#
            return try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(json.utf8))
        }
        #expect(try task(false).validated(session: session).request?.url == "https://origin.example/")
        let refused = try task(true)
        do {
            _ = try refused.validated(session: session)
            Issue.record("a request requiring DNSSEC was accepted")
        } catch {
            #expect(error.field == "request.requiresDNSSECValidation")
            #expect(error.kind == .invalidValue)
        }
    }

    @Test func storedConfigurationsFromBeforeCacheScopesKeepTheirMeaning() throws {
        let decode = { (text: String) in try JSONDecoder().decode(URLCacheConfiguration.self, from: Data(text.utf8)) }
        #expect(try decode(#"{"memoryCapacity": 512000, "diskCapacity": 10000000}"#) == .shared)
        #expect(try decode(#"{"memoryCapacity": 1, "diskCapacity": 2}"#) == .private(memoryCapacity: 1, diskCapacity: 2))
    }

    @Test(arguments: [
        (#"{"kind": "background"}"#, "configuration.identifier", RequestDecodingError.Kind.missingField),
        (#"{"identifier": "x"}"#, "configuration.identifier", .invalidValue),
        (#"{"kind": "background", "identifier": "has space"}"#, "configuration.identifier", .invalidValue),
        (#"{"kind": "background", "identifier": "x", "waitsForConnectivity": false}"#, "configuration.waitsForConnectivity", .invalidValue),
        (#"{"timeoutIntervalForRequest": 0}"#, "configuration.timeoutIntervalForRequest", .invalidValue),
        (#"{"timeoutIntervalForResource": 1e9}"#, "configuration.timeoutIntervalForResource", .invalidValue),
        (#"{"httpMaximumConnectionsPerHost": 0}"#, "configuration.httpMaximumConnectionsPerHost", .invalidValue),
        (#"{"httpMaximumConnectionsPerHost": 65}"#, "configuration.httpMaximumConnectionsPerHost", .invalidValue),
        (
            #"{"kind": "ephemeral", "urlCache": {"memoryCapacity": 1, "diskCapacity": 1}}"#, "configuration.urlCache.diskCapacity",
            .invalidValue
        ),
        (#"{"kind": "ephemeral", "httpCookieStorage": "shared"}"#, "configuration.httpCookieStorage", .invalidValue),
        (#"{"urlCache": {"memoryCapacity": -1, "diskCapacity": 0}}"#, "configuration.urlCache.memoryCapacity", .invalidValue),
        (
            #"{"tlsMinimumSupportedProtocolVersion": "TLSv13", "tlsMaximumSupportedProtocolVersion": "TLSv12"}"#,
            "configuration.tlsMinimumSupportedProtocolVersion", .invalidValue
        ),
        (#"{"httpAdditionalHeaders": {"Bad Name": "x"}}"#, "configuration.httpAdditionalHeaders.Bad Name", .invalidValue),
        (#"{"httpAdditionalHeaders": {"X-Split": "a\r\nInjected: 1"}}"#, "configuration.httpAdditionalHeaders.X-Split", .invalidValue),
        (#"{"multipathServiceType": "turbo"}"#, "multipathServiceType", .invalidValue),  // a decoding error: the API prefixes it
        (#"{"requiresDNSSECValidation": true}"#, "configuration.requiresDNSSECValidation", .invalidValue),
        (#"{"sharedContainerIdentifier": ""}"#, "configuration.sharedContainerIdentifier", .invalidValue),
        (#"{"sharedContainerIdentifier": "group.\u0000"}"#, "configuration.sharedContainerIdentifier", .invalidValue),
        (#"{"connectionProxyDictionary": {"HTTPSEnable": true}}"#, "configuration.connectionProxyDictionary.HTTPSEnable", .invalidValue),
        (
            #"{"connectionProxyDictionary": {"HTTPSProxy": "p", "HTTPSPort": 70000}}"#, "configuration.connectionProxyDictionary.HTTPSPort",
            .invalidValue
        ),
        (
            #"{"connectionProxyDictionary": {"SOCKSProxy": "p", "SOCKSUser": "ann"}}"#,
            "configuration.connectionProxyDictionary.SOCKSPassword", .invalidValue
        ),
        (
            #"{"connectionProxyDictionary": {"SOCKSProxy": "p", "SOCKSPassword": "pw"}}"#,
            "configuration.connectionProxyDictionary.SOCKSUser", .invalidValue
        ),
        (
            #"{"connectionProxyDictionary": {"SOCKSUser": "ann", "SOCKSPassword": ""}}"#,
            "configuration.connectionProxyDictionary.SOCKSPassword", .invalidValue
        ),
    ])
    func invalidConfigurationsNameTheirField(json: String, field: String, kind: RequestDecodingError.Kind) {
        do {
            _ = try normalize(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.field == field)
            #expect(error.kind == kind)
        }
    }

    @Test func encodesEveryFieldWithExplicitNulls() throws {
        let json = try JSONSerialization.jsonObject(with: Data(try WireJSON.encode(SessionConfiguration(kind: .default))))
        let object = try #require(json as? [String: Any])
        #expect(object.count == 30)
        #expect(object["requiresDNSSECValidation"] as? Bool == false)
        #expect(object["sharedContainerIdentifier"] is NSNull)
        #expect(object["multipathServiceType"] as? String == "none")
        #expect(object["serverTrust"] is NSNull)
        #expect(object["rateLimit"] is NSNull)
        #expect(object["segments"] is NSNull)
        #expect(object["identifier"] is NSNull)
        #expect(object["connectionProxyDictionary"] is NSNull)
        #expect(object["kind"] as? String == "default")
    }
}
