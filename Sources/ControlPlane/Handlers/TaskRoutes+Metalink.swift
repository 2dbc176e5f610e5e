import Foundation
import Metalink
import SessionTasks
import TransferModels

// A task created from a Metalink document in a blob (`"metalink": {"blobId": …}`): the document is read
// and checked before the task exists, so a bad one is the creation's 422 (or 404 for no such blob).
extension TaskRoutes {
    /// The contents of the body's metalink blob; nil when the body names none.
    func metalinkContents(of body: TaskCreateRequest, tenant: String) async throws -> MetalinkContents? {
        guard let blobId = body.metalink?.blobId, body.metalink?.url == nil, ResourceID.isWellFormed(blobId, prefix: "blb") else {
            return nil
        }
        switch try await tasks.files.smallBlob(id: blobId, tenant: tenant, limit: MetalinkParser.maximumDocumentSize) {
        case .notFound:
            throw Problem(status: 404, slug: "not-found", title: "Not Found", detail: "no such blob", field: "metalink.blobId")
        case .tooLarge(let size):
            throw Problem.invalidValue(
                "metalink.blobId", "is \(size) bytes: a Metalink document is at most \(MetalinkParser.maximumDocumentSize)")
        case .bytes(let data):
            do {
                return MetalinkContents(try MetalinkParser.parse(data))
            } catch {
                throw Problem.invalidValue("metalink.blobId", "is not a Metalink 4 document this service reads: \(error)")
            }
        }
    }
}
