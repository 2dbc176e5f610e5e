import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import TransferModels

/// A node's ear on the others: a connection of its own that `LISTEN`s on the store's channels and hands
/// what the other nodes' commits sent to `deliver`.
///
/// When the connection drops (the server restarted, an administrator ended it, the network failed) it
/// connects again, waiting longer after each failure (100 ms doubling up to 5 s). Every connection starts
/// with `.resynchronize` once all its channels listen: what was sent while none listened is lost.
struct PostgresNotificationListener: Sendable {
    let configuration: PostgresConnection.Configuration
    /// This node's origin: notifications that start with it are its own, already seen at its commits.
    let origin: String
    let channels: [StoreChannel]
    let logger: Logger

    /// `application_name` of the listening connection, so an operator sees it in `pg_stat_activity`.
    static let applicationName = "urlsessiond-listener"

    /// Listens until the calling task is cancelled.
    func run(_ deliver: @escaping @Sendable (StoreNotice) -> Void) async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                let heard = try await listenUntilDisconnected(deliver)
                if heard { delay = .milliseconds(100) }
            } catch is CancellationError {
                break
            } catch let error as PSQLError {
                logger.notice("The notification listener lost its connection", metadata: ["error": "\(PostgresStoreError(error))"])
            } catch {
                logger.notice("The notification listener lost its connection", metadata: ["error": "\(error)"])
            }
            guard (try? await Task.sleep(for: delay)) != nil else { break }
            delay = min(delay * 2, .seconds(5))
        }
    }

    /// One connection's life: connects, listens on every channel, and returns (or throws) when the
    /// connection ends; true when it listened at all.
    private func listenUntilDisconnected(_ deliver: @escaping @Sendable (StoreNotice) -> Void) async throws -> Bool {
        var configuration = self.configuration
        configuration.options.additionalStartupParameters.append(("application_name", Self.applicationName))
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: -1, logger: logger)
        let listening = LockedBox(0)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for channel in channels {
                    group.addTask {
                        try await connection.listen(on: channel.name) { notifications in
                            let count = listening.withLock { count in
                                count += 1
                                return count
                            }
                            if count == channels.count {
                                logger.debug("Listening to the other nodes", metadata: ["channels": "\(channels.count)"])
                                deliver(.resynchronize)
                            }
                            for try await notification in notifications {
                                guard let payload = foreignPayload(notification.payload) else { continue }
                                deliver(.notification(channel, payload: payload))
                            }
                        }
                        try Task.checkCancellation()
                        throw ListenerEnded()  // the stream ended without an error: the connection is gone
                    }
                }
                // The first channel to stop ends them all (leaving the group cancels the others).
                try await group.next()
            }
        } catch {
            try? await connection.close()
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            if listening.withLock({ $0 }) == channels.count {
                logger.notice("The notification listener's connection ended; connecting again")
                return true
            }
            throw error
        }
        try? await connection.close()
        return true
    }

    /// The payload another node sent (`<origin> <payload>`); nil for this node's own.
    private func foreignPayload(_ raw: String) -> String? {
        guard let space = raw.firstIndex(of: " ") else { return raw }
        guard raw[..<space] != origin else { return nil }
        return String(raw[raw.index(after: space)...])
    }

    private struct ListenerEnded: Error {}
}
