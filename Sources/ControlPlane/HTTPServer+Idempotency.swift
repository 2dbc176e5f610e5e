import Crypto
import Foundation
import TransferStore

extension HTTPServer {
    /// `Idempotency-Key`: the same key, method, path and body within 24 h get the first answer again and
    /// create nothing; a claimed key with another request is a 409.
    func respondIdempotently(to request: HTTPRequest, route: Route, key: String) async throws -> HTTPResponse {
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw Problem.invalidValue("Idempotency-Key", "must be 1 to 255 visible ASCII characters")
        }
        let fingerprint = Self.fingerprint(of: request)
        switch try await store.idempotency.beginIdempotentRequest(tenant: request.tenant, key: key, fingerprint: fingerprint) {
        case .conflict(let reason):
            throw Problem.conflict(reason, slug: "idempotency-key-reused")
        case .replay(let status, let contentType, let location, let body):
            var headers: [(name: String, value: String)] = [("Idempotent-Replayed", "true")]
            if let contentType { headers.append(("Content-Type", contentType)) }
            if let location { headers.append(("Location", location)) }
            return HTTPResponse(status: status, headers: headers, body: .bytes(Array(body)))
        case .proceed(let claim):
            let response: HTTPResponse
            do {
                response = try await route.handler(request)
            } catch {
                response = problemResponse(for: error, request: request)
            }
            if response.status >= 500 {
                try await store.idempotency.abandonIdempotentRequest(claim)
            } else {
                try await store.idempotency.completeIdempotentRequest(
                    claim, status: response.status, contentType: response.header("Content-Type"),
                    location: response.header("Location"), body: Data(response.bodyBytes))
            }
            return response
        }
    }

    /// sha-256 over method, path, query and body (a spooled body by its digest).
    static func fingerprint(of request: HTTPRequest) -> String {
        var hash = SHA256()
        hash.update(data: Array("\(request.method) \(request.path)\n".utf8))
        for (name, value) in request.query { hash.update(data: Array("\(name)=\(value)&".utf8)) }
        hash.update(data: [0x0A])
        if let spooled = request.spooledBody {
            hash.update(data: spooled.sha256)
        } else {
            hash.update(data: request.body)
        }
        return Data(hash.finalize()).base64EncodedString()
    }
}
