import Logging
import ServiceLifecycle
import TransferStore

/// Keeps the store open while the service runs and closes it last, after everything that writes to it.
struct StoreService: Service {
    let store: TransferStore
    let logger: Logger

    func run() async throws {
        // Other nodes' writes reach this node's feeds and session cache until shutdown (PostgreSQL).
        await withDiscardingTaskGroup { group in
            group.addTask { await store.followOtherNodes() }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        do {
            try store.close()
            logger.info("Store closed")
        } catch {
            logger.error("Closing the store failed", metadata: ["error": "\(String(reflecting: error))"])
        }
    }
}
