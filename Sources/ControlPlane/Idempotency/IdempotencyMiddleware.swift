import Crypto
import Foundation
import SessionTasks

/// `.idempotent`: a POST with an `Idempotency-Key` is answered once. The same key with the same method,
/// path, query and body within 24 h gets the first answer again (`Idempotent-Replayed: true`) and creates
/// nothing; a claimed key with another request, or whose first request is still being answered, is a 409
/// (`idempotency-key-reused`). An answer of 500 or more is not kept: a retry runs again. Without the
/// header the request passes on untouched.
struct IdempotencyMiddleware: RouteMiddleware {
    /// Where the claims and the kept answers live (`ApplicationLayer.idempotency`).
    let keys: IdempotencyKeys
    /// Turns the handler's errors into the answer to keep, as the client would have had it.
    let errors: ProblemResponder

    func respond(to request: HTTPRequest, next: Route.Handler) async throws -> HTTPResponse {
        guard let key = request.header("idempotency-key") else { return try await next(request) }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw Problem.invalidValue("Idempotency-Key", "must be 1 to 255 visible ASCII characters")
        }
        let fingerprint = Self.fingerprint(of: request)
        switch try await keys.begin(tenant: request.tenant, key: key, fingerprint: fingerprint) {
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
                response = try await next(request)
            } catch {
                response = errors.response(for: error, request: request)
            }
            if response.status >= 500 {
                try await keys.abandon(claim)
            } else {
                try await keys.complete(
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
