import Foundation
import SessionTasks
import TransferModels

/// `/v1/blobs`: upload bodies streamed to `<data>/blobs/<id>`, for upload tasks; with an object store,
/// put into it once recorded (`TaskFiles.moveBlobToObjectStore`).
struct BlobRoutes {
    let files: TaskFiles

    var routes: [Route] {
        [
            Route("POST", "/v1/blobs", steps: [.authenticated, .quota(.blobBytes), .idempotent], spoolsBody: true) { try await create($0) },
            Route("GET", "/v1/blobs/{id}", steps: [.authenticated]) { request in
                guard let blob = try await files.blob(id: request.parameter("id"), tenant: request.tenant) else {
                    throw Problem.notFound("no blob \(request.parameter("id"))")
                }
                return try .json(blob.wire)
            },
            Route("DELETE", "/v1/blobs/{id}", steps: [.authenticated]) { request in
                guard try await files.deleteBlob(id: request.parameter("id"), tenant: request.tenant) else {
                    throw Problem.notFound("no blob \(request.parameter("id"))")
                }
                return .noContent
            },
        ]
    }

    private func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let spooled = request.spooledBody else { throw Problem.internalError }
        let id = ResourceID.make(prefix: "blb")
        let record: BlobRecord
        do {
            record = try await files.createBlob(
                id: id, tenant: request.tenant, from: spooled.url.path, size: spooled.size, sha256: spooled.sha256)
        } catch let error as BlobPlacementError {
            throw ControlPlaneError(detail: "could not move the upload into place: \(error.reason)")
        }
        return try .json(record.wire, status: 201, headers: [("Location", "/v1/blobs/\(id)")])
    }
}
