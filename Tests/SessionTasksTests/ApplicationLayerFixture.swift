import Crypto
import Foundation
import JSONCodec
import Logging
import NetworkPaths
import TestSupport
import TransferEngine
import TransferModels
import TransferStore

@testable import SessionTasks

/// A real store in a temporary directory and the parts of the task layer built over it as the task
/// service builds them, for tests of one part at a time (no engine, no binary).
struct ApplicationLayerFixture {
    let directory: TemporaryDirectory
    let store: TransferStore
    let configuration: TaskService.Configuration
    let files: TaskFiles
    let storages: SessionStorages
    let logger = Logger(label: "application-layer-test")

    init(_ configure: (inout TaskService.Configuration) -> Void = { _ in }) throws {
        directory = try TemporaryDirectory.make(prefix: "application-layer")
        store = try TransferStore(
            path: directory.appending("urlsessiond.sqlite").path, secrets: SecretBox(key: SymmetricKey(size: .bits256)),
            logger: logger)
        var configuration = TaskService.Configuration()
        configuration.engine.downloadsDirectory = directory.appending("downloads")
        configuration.trustDirectory = directory.appending("trust")
        configuration.cacheDirectory = directory.appending("cache")
        configuration.blobDirectory = directory.appending("blobs")
        configure(&configuration)
        try FileManager.default.createDirectory(at: configuration.engine.downloadsDirectory, withIntermediateDirectories: true)
        self.configuration = configuration
        files = TaskFiles(
            objectStore: nil, store: store, blobDirectory: configuration.blobDirectory,
            downloadsDirectory: configuration.engine.downloadsDirectory, logger: logger)
        storages = SessionStorages(
            cookies: CookieStorages(store: store, publicSuffixes: nil, logger: logger),
            urlCaches: URLCaches(
                store: store, directory: configuration.cacheDirectory, sharedMemoryCapacity: 100_000,
                sharedDiskCapacity: 1_000_000, logger: logger),
            credentials: CredentialStorages(store: store))
    }

    func session(_ json: String = "{}", tenant: String = "t1") async throws -> SessionRecord {
        let request = try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(json.utf8)).validated()
        guard case .created(let record) = try await store.sessions.createSession(tenant: tenant, request: request, secret: nil)
        else { throw CancellationError() }
        return record
    }

    func task(_ json: String, in session: SessionRecord, schemes: Set<String> = ["http", "https"]) async throws -> TaskRecord {
        let request = try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(json.utf8))
            .validated(session: session.configuration, allowedSchemes: schemes)
        return try await store.tasks.createTask(tenant: session.tenant, sessionId: session.id, request: request)
    }

    func close() {
        try? store.close()
        directory.remove()
    }
}
