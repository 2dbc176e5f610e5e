import Foundation
import ObjectStorage
import TestSupport
import Testing

/// What the object-store suites run against and check the bucket and the node's disk with.
extension S3Server {
    /// A client of this server's bucket, as the service under test sees it under `prefix`.
    func client(prefix: String = "") throws -> ObjectStore {
        ObjectStore(
            configuration: try ObjectStoreConfiguration(
                url: objectStoreURL(prefix: prefix), accessKeyId: accessKeyId, secretAccessKey: secretAccessKey))
    }
}

/// What an object-store test runs against: a fresh service allowed to reach loopback, a fixture origin,
/// and a moto server whose bucket is the service's object store.
struct ObjectStoreWorld {
    let origin: FixtureOrigin
    let s3: S3Server
    /// The bucket as the service sees it (under its prefix).
    let bucket: ObjectStore
}

/// Runs `body` against a fresh service whose object store is a fresh moto server's bucket under `prefix`,
/// beside a fixture origin. `environment` is merged last (a wrong secret, retention settings).
func withObjectStoreService<T>(
    prefix: String = "", environment extra: [String: String] = [:], isolation: isolated (any Actor)? = #isolation,
    _ body: (API, ServiceProcess, ObjectStoreWorld) async throws -> T
) async throws -> T {
    let origin = try FixtureOrigin.start()
    defer { origin.stop() }
    let s3 = try await S3Server.start()
    defer { s3.stop() }
    let world = ObjectStoreWorld(origin: origin, s3: s3, bucket: try s3.client(prefix: prefix))
    let environment = TaskEnvironment.loopback.merging(s3.serviceEnvironment(prefix: prefix)) { $1 }.merging(extra) { $1 }
    return try await withTaskService(environment: environment, isolation: isolation) { api, service in
        try await body(api, service, world)
    }
}

/// Waits (up to `within` seconds) until HEAD of `key` says 404; records an issue otherwise.
func expectGone(
    _ key: String, from bucket: ObjectStore, within seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation
) async {
    do {
        try await eventually(timeout: seconds, interval: 0.1) {
            do {
                _ = try await bucket.head(key: key)
                return false
            } catch {
                return (error as? ObjectStoreError)?.isNotFound == true
            }
        }
    } catch {
        Issue.record("\(key) is still in the bucket after \(seconds) s", sourceLocation: sourceLocation)
    }
}
