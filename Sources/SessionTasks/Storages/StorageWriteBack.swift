/// The write-back of changed storages (cookies, caches): all of them in one write, and when that fails,
/// each alone, so that one the store refuses holds back no other.
enum StorageWriteBack {
    /// `write(batch)`; when it fails and the batch holds more than one member, `write([member])` for each.
    /// `written` is called for each member stored, `failed` for each not (given back for the next turn);
    /// the first failure is thrown.
    static func write<Member>(
        _ batch: [Member], _ write: ([Member]) async throws -> Void, written: (Member) -> Void, failed: (Member) -> Void
    ) async throws {
        do {
            try await write(batch)
            batch.forEach(written)
            return
        } catch {
            guard batch.count > 1 else {
                batch.forEach(failed)
                throw error
            }
        }
        var failure: (any Error)?
        for member in batch {
            do {
                try await write([member])
                written(member)
            } catch {
                failed(member)
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }
}
