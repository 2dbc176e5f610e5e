/// The key of a storage (cookies, cache, credentials), in memory and in its rows' `storage` column: the
/// tenant's shared one, or a session's private one. One format for all three, so the rows of one scope
/// never collide with another's.
enum StorageKey {
    static func shared(tenant: String) -> String { "tenant \(tenant)" }
    static func `private`(sessionId: String) -> String { "session \(sessionId)" }
}
