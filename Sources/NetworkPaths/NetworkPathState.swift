/// One path's live state: whether the kernel says it can carry traffic, and whether an operator says otherwise.
public struct NetworkPathState: Sendable, Equatable {
    public var path: NetworkPath
    /// Usable now: the admin override when set, else the automatic state.
    public var isAvailable: Bool
    /// The automatic state: the interface is up and has an address (an address path: some up interface holds the address; the default route: always true).
    public var isLinkUp: Bool
    public var adminOverride: Bool?
    /// How many times `isAvailable` changed since start.
    public var changes: Int

    /// A path as first seen: its initial availability is not a change.
    init(path: NetworkPath, isLinkUp: Bool) {
        self.path = path
        self.isLinkUp = isLinkUp
        self.adminOverride = nil
        self.isAvailable = isLinkUp
        self.changes = 0
    }

    /// Applies a new link state or override and recomputes availability; true when availability changed.
    mutating func update(isLinkUp: Bool, adminOverride: Bool?) -> Bool {
        self.isLinkUp = isLinkUp
        self.adminOverride = adminOverride
        let wasAvailable = isAvailable
        isAvailable = adminOverride ?? isLinkUp
        guard isAvailable != wasAvailable else { return false }
        changes += 1
        return true
    }
}
