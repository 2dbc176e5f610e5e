public import Foundation

/// `URLSessionStreamTask`: a TCP (or, after `startSecureConnection`, TLS) connection the service holds;
/// reads and writes go through it. Its methods are the async forms of URLSession's completion handlers.
public final class RemoteURLSessionStreamTask: RemoteURLSessionTask, @unchecked Sendable {
    /// `readData(ofMinLength:maxLength:timeout:)`: at least `minBytes` (or what is left at the end of the
    /// read side, with `atEOF` true), at most `maxBytes`; throws `URLError(.timedOut)` when `timeout` passed.
    public func readData(ofMinLength minBytes: Int, maxLength maxBytes: Int, timeout: TimeInterval) async throws -> (
        Data?, Bool
    ) {
        let result = try await self.core.client.decode(
            WireStreamRead.self, "GET", "/v1/tasks/\(self.identifier)/read",
            query: [
                URLQueryItem(name: "minBytes", value: String(minBytes)), URLQueryItem(name: "maxBytes", value: String(maxBytes)),
                URLQueryItem(name: "timeout", value: String(timeout)),
            ], timeout: timeout + 60)
        if let error = result.error { throw error.foundationError }
        let data = Data(base64Encoded: result.data) ?? Data()
        return (data.isEmpty && result.atEOF ? nil : data, result.atEOF)
    }

    /// `write(_:timeout:)`: returns once every byte is written; throws `URLError(.timedOut)` after `timeout`.
    public func write(_ data: Data, timeout: TimeInterval) async throws {
        let body = try ServiceClient.json(["data": data.base64EncodedString(), "timeout": timeout])
        let result = try await self.core.client.decode(
            WireStreamWrite.self, "POST", "/v1/tasks/\(self.identifier)/write", json: body, timeout: timeout + 60)
        if let error = result.error { throw error.foundationError }
    }

    /// `closeRead()`.
    public func closeRead() async throws {
        try await self.core.client.send("POST", "/v1/tasks/\(self.identifier)/closeRead")
    }

    /// `closeWrite()`: the peer sees the end of the stream.
    public func closeWrite() async throws {
        try await self.core.client.send("POST", "/v1/tasks/\(self.identifier)/closeWrite")
    }

    /// `startSecureConnection()`: TLS from here on, after the bytes already written.
    public func startSecureConnection() async throws {
        try await self.core.client.send("POST", "/v1/tasks/\(self.identifier)/startSecureConnection")
    }
}

extension RemoteURLSession {
    /// `streamTask(withHostName:port:)`: a suspended task; `resume()` connects.
    public func streamTask(withHostName hostName: String, port: Int) async throws -> RemoteURLSessionStreamTask {
        let body = try ServiceClient.json(["kind": "stream", "hostName": hostName, "port": port, "resume": false])
        let task = try await self.core.makeTask(body: body, delegate: nil, isConvenience: false)
        guard let stream = task as? RemoteURLSessionStreamTask else { throw URLError(.badServerResponse) }
        return stream
    }
}

/// `StreamReadResult`.
struct WireStreamRead: Decodable, Sendable {
    var data: String
    var atEOF: Bool
    var error: WireError?
}

/// `StreamWriteResult`.
struct WireStreamWrite: Decodable, Sendable {
    var error: WireError?
}
