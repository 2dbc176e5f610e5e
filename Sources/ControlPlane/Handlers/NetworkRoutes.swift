import JSONCodec
import NetworkPaths
import SessionTasks
import TransferModels

/// `/v1/networks`: the host's network paths with their flags and state, the same for every tenant;
/// `PUT /v1/admin/networks/{name}` overrides a path's state (admin only) until cleared with
/// `{"available": null}`.
struct NetworkRoutes {
    let networks: NetworkPathMonitor
    let cursors: PageCursors

    var routes: [Route] {
        [
            Route("GET", "/v1/networks", steps: [.authenticated]) { try list($0) },
            Route("PUT", "/v1/admin/networks/{name}", steps: [.authenticated, .admin]) { try override($0) },
        ]
    }

    private func list(_ request: HTTPRequest) throws -> HTTPResponse {
        let pagination = try request.pagination(cursors)
        return try .json(try pagination.page(of: networks.states().map(NetworkObject.init)))
    }

    private func override(_ request: HTTPRequest) throws -> HTTPResponse {
        let name = request.parameter("name")
        let available: Bool?
        switch try request.decodeJSON(NetworkAvailabilityUpdate.self).available {
        case .absent: throw RequestDecodingError.missingField("available")
        case .null: available = nil
        case .value(let value): available = value
        }
        guard let state = networks.setOverride(name, available: available) else {
            throw Problem.notFound("no network path \(name)")
        }
        return try .json(NetworkObject(state))
    }
}

/// `{"available": true | false | null}`: up, down, or back to the link's own state.
struct NetworkAvailabilityUpdate: Decodable {
    var available: Nullable<Bool>
}

/// A network path as `GET /v1/networks` shows it (its proxy without a password).
struct NetworkObject: Encodable {
    var name: String
    var type: String
    var interface: String?
    var sourceAddress: String?
    var expensive: Bool
    var constrained: Bool
    var proxy: String?
    var preference: Int
    var available: Bool
    var linkUp: Bool
    var adminOverride: Bool?
    var changes: Int

    init(_ state: NetworkPathState) {
        let path = state.path
        (name, type, preference) = (path.name, path.type.rawValue, path.preference)
        switch path.binding {
        case .interface(let device): interface = device
        case .sourceAddress(let address): sourceAddress = address
        case .defaultRoute: break
        }
        (expensive, constrained, proxy) = (path.isExpensive, path.isConstrained, path.proxy.map(Redaction.url))
        (available, linkUp, adminOverride, changes) = (state.isAvailable, state.isLinkUp, state.adminOverride, state.changes)
    }

    enum CodingKeys: String, CodingKey {
        case name, type, interface, sourceAddress, expensive, constrained, proxy, preference, available, linkUp, adminOverride, changes
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(type, forKey: .type)
        try c.encode(interface, forKey: .interface)
        try c.encode(sourceAddress, forKey: .sourceAddress)
        try c.encode(expensive, forKey: .expensive)
        try c.encode(constrained, forKey: .constrained)
        try c.encode(proxy, forKey: .proxy)
        try c.encode(preference, forKey: .preference)
        try c.encode(available, forKey: .available)
        try c.encode(linkUp, forKey: .linkUp)
        try c.encode(adminOverride, forKey: .adminOverride)
        try c.encode(changes, forKey: .changes)
    }
}
