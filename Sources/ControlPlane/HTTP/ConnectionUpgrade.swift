import TransferModels

/// The body of a 101 (`HTTPResponse.Body.upgrade`): who takes the connection over once MHD has sent the
/// answer, or hears that it never will (the client left first). Exactly one of the two happens.
public final class ConnectionUpgrade: Sendable {
    private let handlers = LockedBox<(takeOver: @Sendable (UpgradedConnection) -> Void, abandoned: @Sendable () -> Void)?>(nil)

    init(takeOver: @escaping @Sendable (UpgradedConnection) -> Void, abandoned: @escaping @Sendable () -> Void) {
        handlers.withLock { $0 = (takeOver, abandoned) }
    }

    /// The 101 was sent: the connection is the taker's (on an MHD thread: it must not block).
    func takeOver(_ connection: UpgradedConnection) {
        guard let handlers = claim() else { return connection.close() }
        handlers.takeOver(connection)
    }

    /// The request completed without the upgrade (the client left, MHD could not queue the 101).
    func abandon() {
        claim()?.abandoned()
    }

    private func claim() -> (takeOver: @Sendable (UpgradedConnection) -> Void, abandoned: @Sendable () -> Void)? {
        handlers.withLock { handlers in
            defer { handlers = nil }
            return handlers
        }
    }
}
