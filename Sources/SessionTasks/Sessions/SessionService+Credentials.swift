import Certificates
import JSONCodec
import TransferEngine
public import TransferModels
import TransferStore

/// `URLCredentialStorage` for the API: store, list, look up, remove, and choose the default of a space.
extension SessionService {
    /// `set(_:for:)` in the tenant's shared storage, or with `session` in that session's private one.
    public func createCredential(
        _ request: CredentialCreateRequest, tenant: String, session: SessionRecord?
    ) async throws -> CredentialObject {
        let request = try request.validated()
        let placement = try Self.credentialPlacement(tenant: tenant, session: session)
        let identity = try request.credential.identity.map { try ClientIdentity.make($0, field: "credential.identity") }
        let entry = try await credentialStorages.add(
            user: request.credential.user ?? "", password: request.credential.password ?? "", identity: identity,
            trust: request.credential.serverTrust,
            space: request.protectionSpace, persistence: request.credential.persistence ?? .permanent,
            makeDefault: request.isDefault ?? false, to: placement)
        return Self.object(entry, placement: placement)
    }

    /// The credentials `session` uses (its private storage, the tenant's shared one, or none), or with
    /// no session the tenant's shared storage, that match the given fields of a protection space, oldest
    /// first.
    public func credentials(
        tenant: String, session: SessionRecord?, matching filter: (ProtectionSpace) -> Bool
    ) async throws -> [CredentialObject] {
        let storage = session?.configuration.urlCredentialStorage
        if storage == StorageScope.none { return [] }
        let placement = try Self.credentialPlacement(tenant: tenant, session: storage == .private ? session : nil)
        return try await credentialStorages.storage(placement).all.filter { filter($0.space) }.map { Self.object($0, placement: placement) }
    }

    /// The tenant's credential `id`, wherever it is stored; nil when the tenant has none by that id.
    public func credential(id: String, tenant: String) async throws -> CredentialObject? {
        guard let (placement, entry) = try await findCredential(id, tenant: tenant) else { return nil }
        return Self.object(entry, placement: placement)
    }

    /// `remove(_:for:)`; false when the tenant has no credential `id`.
    public func removeCredential(id: String, tenant: String) async throws -> Bool {
        guard let (placement, _) = try await findCredential(id, tenant: tenant) else { return false }
        return try await credentialStorages.remove(id, from: placement)
    }

    /// `setDefaultCredential(_:for:)` of the tenant's credential `id` (for its space); nil when none.
    public func setDefaultCredential(id: String, tenant: String) async throws -> CredentialObject? {
        guard let (placement, _) = try await findCredential(id, tenant: tenant),
            try await credentialStorages.setDefault(id, in: placement),
            let entry = try await credentialStorages.storage(placement).entry(id)
        else { return nil }
        return Self.object(entry, placement: placement)
    }

    /// The storage a credential goes to: the tenant's shared one, or a session's private one (a session
    /// configured `shared` or `none` has none of its own: 422 naming `sessionId`).
    static func credentialPlacement(tenant: String, session: SessionRecord?) throws -> CredentialStorages.Placement {
        guard let session else { return CredentialStorages.shared(tenant: tenant) }
        guard session.configuration.urlCredentialStorage == .private,
            let placement = CredentialStorages.placement(of: session)
        else {
            throw RequestDecodingError.invalidValue(
                "sessionId",
                "the session's urlCredentialStorage is \(session.configuration.urlCredentialStorage.rawValue): "
                    + "store the credential without sessionId (shared), or create the session with private storage")
        }
        return placement
    }

    /// Looks in the storages read so far, then asks the store (a permanent credential of a storage not
    /// read yet); another tenant's credential is never found.
    private func findCredential(_ id: String, tenant: String) async throws -> (CredentialStorages.Placement, CredentialStorages.Entry)? {
        let shared = CredentialStorages.shared(tenant: tenant)
        if let entry = try await credentialStorages.storage(shared).entry(id) { return (shared, entry) }
        if let (placement, entry) = credentialStorages.loaded(id, tenant: tenant) { return (placement, entry) }
        guard let owner = try await store.credentials.credentialOwner(id: id), owner.tenant == tenant, let sessionId = owner.sessionId
        else {
            return nil
        }
        let placement = CredentialStorages.Placement(key: owner.storage, tenant: tenant, sessionId: sessionId, isPersistent: true)
        return try await credentialStorages.storage(placement).entry(id).map { (placement, $0) }
    }

    static func object(_ entry: CredentialStorages.Entry, placement: CredentialStorages.Placement) -> CredentialObject {
        CredentialObject(
            id: entry.id, protectionSpace: entry.space, kind: entry.kind, user: entry.kind == "password" ? entry.user : nil,
            hasPassword: !entry.password.isEmpty || entry.identity?.passphrase != nil, persistence: entry.persistence,
            sessionId: placement.sessionId, isDefault: entry.isDefault, createdAt: entry.createdAt,
            identity: entry.identity.flatMap { try? Certificates.parsePEM($0.certificateChain).first }.map {
                CredentialObject.IdentitySummary(subject: $0.subject, issuer: $0.issuer, sha256: $0.sha256, notValidAfter: $0.notValidAfter)
            },
            serverTrust: entry.trust)
    }
}
