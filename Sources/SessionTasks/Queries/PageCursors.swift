public import TransferStore

/// The `?after=` cursors of the API's lists: a position in one list sealed for one tenant (the store's
/// `ListCursors`, whose key it holds), so a cursor shows nothing and opens only where it was given.
public struct PageCursors: Sendable {
    let cursors: ListCursors

    public init(store: TransferStore) { cursors = store.listCursors }

    /// The cursor of `position` in `list` (e.g. the request's path) for `tenant`.
    public func cursor(position: Int64, tenant: String, list: String) throws -> String {
        try cursors.cursor(position: position, tenant: tenant, list: list)
    }

    /// The position a cursor of this service gave `tenant` for `list`; nil for anything else.
    public func position(of cursor: String, tenant: String, list: String) -> Int64? {
        cursors.position(of: cursor, tenant: tenant, list: list)
    }
}
