internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

/// The service's REST API, called through the process's `HTTPTransport`.
///
/// One value per ``RemoteURLSession``. Long-polls (`?wait=`) and cancel-with-resume-data answers may take a
/// while: the idle timeout of each call is set per request.
struct ServiceClient: Sendable {
    let connection: RemoteConnection
    var transport: HTTPTransport { .shared }

    init(connection: RemoteConnection) {
        self.connection = connection
    }

    func request(
        _ method: String, _ path: String, query: [URLQueryItem] = [], timeout: TimeInterval = 60
    ) -> URLRequest {
        var components = URLComponents(url: self.connection.url, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.path = components.path.hasSuffix("/") ? String(components.path.dropLast()) + path : components.path + path
        if !query.isEmpty { components.queryItems = query }
        var request = URLRequest(url: components.url ?? self.connection.url)
        request.httpMethod = method
        request.timeoutInterval = timeout
        request.setValue("Bearer \(self.connection.token)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// Sends a call and answers its body, throwing ``RemoteServiceError`` for a problem answer.
    @discardableResult
    func send(
        _ method: String, _ path: String, json: Data? = nil, query: [URLQueryItem] = [],
        timeout: TimeInterval = 60
    ) async throws -> Data {
        var request = self.request(method, path, query: query, timeout: timeout)
        if let json {
            request.httpBody = json
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (body, response) = try await self.transport.data(for: request)
        try Self.check(response, body: body)
        return body
    }

    /// Sends a call and decodes its JSON answer.
    func decode<T: Decodable>(
        _ type: T.Type, _ method: String, _ path: String, json: Data? = nil, query: [URLQueryItem] = [],
        timeout: TimeInterval = 60
    ) async throws -> T {
        let body = try await self.send(method, path, json: json, query: query, timeout: timeout)
        return try JSONDecoder().decode(T.self, from: body)
    }

    /// Fetches `path` (a task's `/file`) into a new temporary file and answers its URL.
    func download(_ path: String) async throws -> URL {
        let request = self.request("GET", path)
        let destination = FileManager.default.temporaryDirectory
            .appendingPathComponent("URLSessionRemote-\(UUID().uuidString).tmp")
        let response = try await self.transport.download(for: request, to: destination)
        if (200..<300).contains(response.statusCode) { return destination }
        // A problem answer is small: read it for the error, then drop the file.
        let body = (try? Data(contentsOf: destination)) ?? Data()
        try? FileManager.default.removeItem(at: destination)
        try Self.check(response, body: body)
        throw URLError(.badServerResponse)
    }

    /// A JSON body for ``send(_:_:json:query:timeout:)``.
    static func json(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    static func check(_ response: URLResponse, body: Data) throws {
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        guard !(200..<300).contains(http.statusCode) else { return }
        let problem = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        throw RemoteServiceError(
            status: http.statusCode, type: problem["type"] as? String, title: problem["title"] as? String,
            detail: problem["detail"] as? String, field: problem["field"] as? String)
    }
}

extension ServiceClient {
    /// `POST /v1/blobs` with `data` as the body; answers the blob's id.
    func uploadBlob(data: Data) async throws -> String {
        var request = self.request("POST", "/v1/blobs", timeout: 600)
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (body, response) = try await self.transport.data(for: request, body: .data(data))
        try Self.check(response, body: body)
        return try JSONDecoder().decode(WireBlob.self, from: body).id
    }

    /// `POST /v1/blobs` with the file's bytes, streamed from disk; answers the blob's id.
    func uploadBlob(file: URL) async throws -> String {
        var request = self.request("POST", "/v1/blobs", timeout: 600)
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (body, response) = try await self.transport.data(for: request, body: .file(file))
        try Self.check(response, body: body)
        return try JSONDecoder().decode(WireBlob.self, from: body).id
    }
}

/// `Blob`: only its id.
struct WireBlob: Decodable, Sendable {
    var id: String
}
