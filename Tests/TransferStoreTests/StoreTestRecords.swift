import Foundation
import JSONCodec
import TransferModels
import TransferStore

extension TransferStore {
    /// A default session of `tenant`, as `POST /v1/sessions` with `{}` makes it.
    func makeSession(tenant: String = "t1") async throws -> SessionRecord {
        let request = try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array("{}".utf8)).validated()
        guard case .created(let record) = try await sessions.createSession(tenant: tenant, request: request, secret: nil) else {
            throw CancellationError()
        }
        return record
    }
}

/// A data task's request for `url`, validated for a default session.
func dataTaskRequest(_ url: String = "https://o.example/a") throws -> ValidatedTaskRequest {
    try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(#"{"kind": "data", "request": {"url": "\#(url)"}}"#.utf8))
        .validated(session: SessionConfiguration(kind: .default))
}
