import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

/// The credential storages of the service, by scope (`urlCredentialStorage`): the tenant's `shared` one
/// (as `URLCredentialStorage.shared` in an app) and each session's `private` one. Tenants never share one.
///
/// A storage is read from the store on first use. `permanent` credentials are written to the store when
/// they are stored, their passwords sealed with the service's key; `forSession` ones live in memory for
/// the storage's life (the service's run for the shared storage, the session's for a private one), and so
/// do every credential of an ephemeral session's storage. Passwords are never logged nor returned.
final class CredentialStorages: Sendable {
    struct Placement: Sendable {
        var key: String
        var tenant: String
        var sessionId: String?
        var isPersistent: Bool
    }

    /// One stored credential with its secret.
    struct Entry: Sendable {
        var id: String
        var space: ProtectionSpace
        var user: String
        var password: String
        /// A client identity (then `user` and `password` are empty).
        var identity: ClientIdentity?
        /// A server-trust exception (then `user` and `password` are empty).
        var trust: TrustException?
        var persistence: CredentialPersistence
        var isDefault: Bool
        var createdAt: Date

        /// `password`, `identity` or `serverTrust`: the row's kind and the API's.
        var kind: String { identity != nil ? "identity" : trust != nil ? "serverTrust" : "password" }
    }

    private let store: TransferStore
    private let storages = LockedBox<[String: CredentialStorage]>([:])
    /// Credential changes one at a time, so a default marked in memory and in the store agree.
    private let writes = TaskControlQueue()

    init(store: TransferStore) {
        self.store = store
    }

    static func placement(tenant: String, sessionId: String, configuration: SessionConfiguration) -> Placement? {
        switch configuration.urlCredentialStorage {
        case .none: nil
        case .shared: Placement(key: StorageKey.shared(tenant: tenant), tenant: tenant, sessionId: nil, isPersistent: true)
        case .private:
            Placement(
                key: StorageKey.private(sessionId: sessionId), tenant: tenant, sessionId: sessionId,
                isPersistent: configuration.kind != .ephemeral)
        }
    }

    static func placement(of session: SessionRecord) -> Placement? {
        placement(tenant: session.tenant, sessionId: session.id, configuration: session.configuration)
    }

    /// The tenant's shared storage, whatever a session is configured with (the API's default).
    static func shared(tenant: String) -> Placement {
        Placement(key: StorageKey.shared(tenant: tenant), tenant: tenant, sessionId: nil, isPersistent: true)
    }

    /// The storage, read from the store the first time it is used.
    func storage(_ placement: Placement) async throws -> CredentialStorage {
        if let loaded = storages.withLock({ $0[placement.key] }) { return loaded }
        var entries: [Entry] = []
        if placement.isPersistent {
            for (row, secret) in try await store.credentials.credentials(inStorage: placement.key) {
                let identity = row.kind == "identity" ? try JSONDecoder().decode(ClientIdentity.self, from: Data(secret.utf8)) : nil
                let trust = row.kind == "serverTrust" ? try JSONDecoder().decode(TrustException.self, from: Data(secret.utf8)) : nil
                entries.append(
                    Entry(
                        id: row.id,
                        space: ProtectionSpace(
                            host: row.host, port: row.port, protocol: row.protocol, realm: row.realm,
                            authenticationMethod: row.authenticationMethod, isProxy: row.isProxy),
                        user: row.user, password: row.kind == "password" ? secret : "", identity: identity, trust: trust,
                        persistence: .permanent,
                        isDefault: row.isDefault, createdAt: row.createdAt))
            }
        }
        let loaded = CredentialStorage(placement: placement, entries: entries)
        return storages.withLock { storages in
            if let first = storages[placement.key] { return first }
            storages[placement.key] = loaded
            return loaded
        }
    }

    /// `set(_:for:)`: stores a credential (as the space's default when asked, or when the space has none);
    /// `permanent` ones are written first (sealed) unless the storage keeps nothing on disk.
    @discardableResult
    func add(
        user: String, password: String, identity: ClientIdentity? = nil, trust: TrustException? = nil, space: ProtectionSpace,
        persistence: CredentialPersistence,
        makeDefault: Bool, to placement: Placement
    ) async throws -> Entry {
        let storage = try await storage(placement)
        return try await writes.run(placement.key) {
            let others = storage.entries(for: space)
            var entry = Entry(
                id: ResourceID.make(prefix: "crd"), space: space, user: user, password: password, identity: identity, trust: trust,
                persistence: persistence, isDefault: makeDefault || !others.contains(where: \.isDefault), createdAt: Date())
            if persistence == .permanent && placement.isPersistent {
                let secret =
                    try identity.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                    ?? trust.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) } ?? password
                let record = CredentialRecord(
                    id: entry.id, storage: placement.key, tenant: placement.tenant, sessionId: placement.sessionId, host: space.host,
                    port: space.port, protocol: space.protocol, realm: space.realm, authenticationMethod: space.authenticationMethod,
                    isProxy: space.isProxy, kind: entry.kind, user: user,
                    sealedPassword: try store.credentials.sealPassword(secret), isDefault: entry.isDefault, createdAt: entry.createdAt)
                try await store.credentials.insertCredential(record, clearingDefaults: entry.isDefault ? others.map(\.id) : [])
            } else if persistence == .permanent {
                entry.persistence = .forSession  // an ephemeral session's storage: never on disk
            }
            storage.insert(entry)
            return entry
        }
    }

    /// `setDefaultCredential(_:for:)` of a stored credential; false when the storage has no such id.
    func setDefault(_ id: String, in placement: Placement) async throws -> Bool {
        let storage = try await storage(placement)
        return try await writes.run(placement.key) {
            guard let entry = storage.entry(id) else { return false }
            let others = storage.entries(for: entry.space).filter { $0.id != id }.map(\.id)
            if placement.isPersistent { try await store.credentials.setDefaultCredential(id, clearing: others) }
            storage.makeDefault(id)
            return true
        }
    }

    /// `remove(_:for:)`; false when the storage has no such id.
    func remove(_ id: String, from placement: Placement) async throws -> Bool {
        let storage = try await storage(placement)
        return try await writes.run(placement.key) {
            guard storage.entry(id) != nil else { return false }
            if placement.isPersistent { try await store.credentials.deleteCredential(id: id) }
            storage.remove(id)
            return true
        }
    }

    /// `reset()`: empties the storage the session's credentials live in (the tenant's, when shared).
    func reset(_ session: SessionRecord) async throws {
        guard let placement = Self.placement(of: session) else { return }
        try await removeAll(from: placement)
    }

    /// The session is invalidated: its private storage goes (its `forSession` credentials with it).
    func discard(_ session: SessionRecord) async throws {
        guard let placement = Self.placement(of: session), placement.sessionId != nil else { return }
        try await removeAll(from: placement)
        storages.withLock { _ = $0.removeValue(forKey: placement.key) }
    }

    /// Every credential of the storage goes, from the store in one transaction.
    private func removeAll(from placement: Placement) async throws {
        let storage = try await storage(placement)
        try await writes.run(placement.key) {
            if placement.isPersistent { try await store.credentials.deleteCredentials(inStorage: placement.key) }
            storage.removeAll()
        }
    }

    /// The credential `id` in a storage of `tenant` read so far (a private one holds its `forSession`
    /// credentials only in memory).
    func loaded(_ id: String, tenant: String) -> (Placement, Entry)? {
        let candidates = storages.withLock { Array($0.values) }.filter { $0.placement.tenant == tenant }
        for storage in candidates {
            if let entry = storage.entry(id) { return (storage.placement, entry) }
        }
        return nil
    }

    /// A transfer's view of its session's storage.
    func credentials(tenant: String, sessionId: String, configuration: SessionConfiguration) async throws -> (any TransferCredentials)? {
        guard let placement = Self.placement(tenant: tenant, sessionId: sessionId, configuration: configuration) else { return nil }
        return try await storage(placement)
    }
}

/// One credential storage: its entries under a lock, read from the engine's loop thread (quick, no I/O).
final class CredentialStorage: TransferCredentials, Sendable {
    let placement: CredentialStorages.Placement
    private let entries: LockedBox<[CredentialStorages.Entry]>

    init(placement: CredentialStorages.Placement, entries: [CredentialStorages.Entry]) {
        self.placement = placement
        self.entries = LockedBox(entries)
    }

    var all: [CredentialStorages.Entry] { entries.withLock { $0 } }

    func entry(_ id: String) -> CredentialStorages.Entry? { entries.withLock { $0.first { $0.id == id } } }

    /// The credentials stored for exactly this space (same host, port, protocol, realm, method, proxy).
    func entries(for space: ProtectionSpace) -> [CredentialStorages.Entry] {
        entries.withLock { $0.filter { $0.space == space } }
    }

    func insert(_ entry: CredentialStorages.Entry) {
        entries.withLock { entries in
            if entry.isDefault {
                for index in entries.indices where entries[index].space == entry.space { entries[index].isDefault = false }
            }
            entries.append(entry)
        }
    }

    func makeDefault(_ id: String) {
        entries.withLock { entries in
            guard let space = entries.first(where: { $0.id == id })?.space else { return }
            for index in entries.indices where entries[index].space == space { entries[index].isDefault = entries[index].id == id }
        }
    }

    func remove(_ id: String) { entries.withLock { $0.removeAll { $0.id == id } } }

    func removeAll() { entries.withLock { $0.removeAll() } }

    /// `defaultCredential(for:)`: the default of the most specific stored space covering `space` (a realm
    /// named beats any realm), else nil.
    func defaultCredential(for space: ProtectionSpace) -> (user: String, password: String)? {
        defaultEntry(for: space).map { ($0.user, $0.password) }
    }

    func clientIdentity(host: String, port: Int) -> ClientIdentity? {
        entries.withLock { entries in
            entries.first {
                $0.isDefault && $0.identity != nil && $0.space.authenticationMethod == ProtectionSpace.clientCertificate
                    && $0.space.host == host && $0.space.port == port && $0.space.protocol == "https"
            }?.identity
        }
    }

    /// Every trust exception stored for `https://host:port` (each one accepts its certificate, default or not).
    func trustExceptions(host: String, port: Int) -> [TrustException] {
        entries.withLock { entries in
            entries.compactMap {
                $0.space.host == host && $0.space.port == port && $0.space.authenticationMethod == ProtectionSpace.serverTrust
                    ? $0.trust : nil
            }
        }
    }

    /// The entry `defaultCredential(for:)` answers with (what a challenge proposes).
    func defaultEntry(for space: ProtectionSpace) -> CredentialStorages.Entry? {
        entries.withLock { entries in
            let candidates = entries.filter { $0.isDefault && $0.kind == "password" && $0.space.covers(space) }
            return candidates.first { $0.space.realm != nil } ?? candidates.first
        }
    }
}
