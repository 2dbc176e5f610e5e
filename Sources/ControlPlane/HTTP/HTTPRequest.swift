public import Foundation

/// Who is calling: the tenant and role a bearer token maps to.
public struct Principal: Sendable, Hashable {
    public enum Role: String, Sendable, Hashable { case admin, user }
    public var tenant: String
    public var role: Role

    public init(tenant: String, role: Role) {
        self.tenant = tenant
        self.role = role
    }
}

/// A body that was streamed to a file instead of memory (large uploads such as blobs).
public struct SpooledBody: Sendable {
    /// The temporary file; a handler that keeps it must move it, otherwise it is removed after the answer.
    public var url: URL
    public var size: Int64
    /// sha-256 of the bytes.
    public var sha256: Data
}

/// One API request, as handlers see it: everything read, authenticated, routed.
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    /// Query parameters, in order; repeated names keep every value.
    public var query: [(name: String, value: String)]
    /// Header fields with lowercased names.
    public var headers: [(name: String, value: String)]
    /// The body held in memory (empty for spooled bodies).
    public var body: [UInt8]
    public var spooledBody: SpooledBody?
    /// Values of the route's `{name}` segments.
    public var parameters: [String: String]
    public var principal: Principal?
    public var requestID: String

    /// The first value of a header (`name` lowercased).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The route parameter `name` (the router guarantees it exists).
    public func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// The tenant of an authenticated route.
    public var tenant: String { principal?.tenant ?? "" }
}
