import Foundation
import ObjectStorage
import TestSupport
import Testing

/// What the object-store suites check the bucket and the node's disk with.
extension S3Server {
    /// A client of this server's bucket, as the service under test sees it under `prefix`.
    func client(prefix: String = "") throws -> ObjectStore {
        ObjectStore(
            configuration: try ObjectStoreConfiguration(
                url: objectStoreURL(prefix: prefix), accessKeyId: accessKeyId, secretAccessKey: secretAccessKey))
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
