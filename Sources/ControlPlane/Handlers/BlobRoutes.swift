import Foundation
import SessionTasks
import TransferModels
import TransferStore

/// `/v1/blobs`: upload bodies streamed to `<data>/blobs/<id>`, for upload tasks; with an object store,
/// put into it once recorded (`TaskFiles.moveBlobToObjectStore`).
struct BlobRoutes {
    let store: TransferStore
    let tasks: TaskService
    let directory: URL

    var routes: [Route] {
        [
            Route("POST", "/v1/blobs", steps: [.authenticated, .quota(.blobBytes), .idempotent], spoolsBody: true) { try await create($0) },
            Route("GET", "/v1/blobs/{id}", steps: [.authenticated]) { request in
                guard let blob = try await store.blobs.blob(id: request.parameter("id"), tenant: request.tenant) else {
                    throw Problem.notFound("no blob \(request.parameter("id"))")
                }
                return try .json(blob.wire)
            },
            Route("DELETE", "/v1/blobs/{id}", steps: [.authenticated]) { request in
                guard let blob = try await store.blobs.deleteBlob(id: request.parameter("id"), tenant: request.tenant) else {
                    throw Problem.notFound("no blob \(request.parameter("id"))")
                }
                unlink(path(of: blob.id))  // none when the blob is in the object store, or on another node
                if let key = blob.object { await tasks.files.deleteObjects([key]) }  // a failure is logged; no row names it
                return .noContent
            },
        ]
    }

    func path(of id: String) -> String { directory.appendingPathComponent(id).path }

    private func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let spooled = request.spooledBody else { throw Problem.internalError }
        let id = ResourceID.make(prefix: "blb")
        // The file is in place before the row exists; a crash between leaves an orphan file that
        // start-up removes, never a row without its file.
        guard rename(spooled.url.path, path(of: id)) == 0 else {
            throw ControlPlaneError(detail: "could not move the upload into place: \(String(cString: strerror(errno)))")
        }
        let record: BlobRecord
        do {
            // On disk, name and bytes, before the row that promises it exists (a power cut in between
            // leaves an orphan for start-up to remove, never a blob row without its bytes).
            try await FileDurability.sync(fileAt: path(of: id))
            record = try await store.blobs.insertBlob(
                BlobRecord(id: id, tenant: request.tenant, size: spooled.size, digest: "sha-256=:\(spooled.sha256.base64EncodedString()):"))
        } catch {
            unlink(path(of: id))
            throw error
        }
        // Before the answer: a client that sees 201 may start an upload on another node at once.
        await tasks.files.moveBlobToObjectStore(record, path: path(of: id))
        return try .json(record.wire, status: 201, headers: [("Location", "/v1/blobs/\(id)")])
    }
}
