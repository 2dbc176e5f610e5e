import Foundation
import SessionTasks
import TransferModels

extension TaskRoutes {
    /// `GET /v1/tasks/{id}/data`: a data or upload task's response body, with the origin's Content-Type;
    /// one byte range at most (`Range`, as `/file`). A running task's body is followed while it arrives
    /// (`TaskRoutes+Following.swift`); a suspended one has none to give yet (409). A failed task has none,
    /// and a body that expired or was released is gone: both are 404. A body that really was empty (204,
    /// `Content-Length: 0`) is an empty 200.
    func data(_ request: HTTPRequest) async throws -> HTTPResponse {
        let task = try await tasks.requireTask(request.parameter("id"), tenant: request.tenant)
        guard task.kind != .download else { throw Problem.notFound("download tasks have a file: /v1/tasks/\(task.id)/file") }
        switch task.state {
        case .completed: return try await completedData(request, task: task)
        case .suspended: throw Problem.conflict("the body is there while the task runs, and once it completes")
        case .running, .canceling: return try await followedData(request, task: task)
        }
    }

    /// `/data` of a completed task: its kept body, or the ranges of it asked for.
    func completedData(_ request: HTTPRequest, task: TaskRecord) async throws -> HTTPResponse {
        if let error = task.error { throw Problem.notFound("\(task.id) failed with code \(error.code): it has no body") }
        let contentType = task.response?.value(forHTTPHeaderField: "Content-Type") ?? "application/octet-stream"
        let headers = [("Content-Type", contentType), Self.noSniff]
        if let key = task.fileObject { return try await objectData(request, task: task, key: key, headers: headers) }
        guard let body = try await currentBody(of: task) else {
            guard task.countOfBytesReceived == 0 else {
                throw Problem.notFound("the body of \(task.id) has expired or was released")
            }
            return HTTPResponse(status: 200, headers: headers)
        }
        return try Self.answer(body, range: request.header("range"), headers: headers)
    }

    /// The whole body (200), or the one range `range` asks for (206; 416 past its end).
    private static func answer(_ body: Body, range: String?, headers: [(name: String, value: String)]) throws -> HTTPResponse {
        let size = body.size
        guard let range else { return HTTPResponse(status: 200, headers: headers, body: body.slice(first: 0, count: size)) }
        switch RangeRequest.parse(range, size: size) {
        case .whole:
            return HTTPResponse(status: 200, headers: headers, body: body.slice(first: 0, count: size))
        case .range(let first, let last):
            return HTTPResponse(
                status: 206, headers: headers + [("Content-Range", "bytes \(first)-\(last)/\(size)")],
                body: body.slice(first: first, count: last - first + 1))
        case .unsatisfiable:
            throw Self.rangeNotSatisfiable(size: size, headers: headers)
        }
    }

    /// `GET /v1/tasks/{id}/file`: the downloaded file (`didFinishDownloadingTo`), one byte range at most
    /// (RFC 9110 §14.2, see ``RangeRequest``). A small download's file is kept in the store and served the same way.
    func file(_ request: HTTPRequest) async throws -> HTTPResponse {
        let task = try await tasks.requireTask(request.parameter("id"), tenant: request.tenant)
        guard task.kind == .download else { throw Problem.notFound("only download tasks have a file") }
        guard task.state == .completed else { throw Problem.conflict("the file is there once the download completes") }
        if let error = task.error { throw Problem.notFound("\(task.id) failed with code \(error.code): it has no file") }
        if let key = task.fileObject { return try await objectFile(request, task: task, key: key) }
        let body: Body
        if let current = try await currentBody(of: task) {
            body = current
        } else if task.bodyIsStored && task.countOfBytesReceived == 0 {
            body = .bytes([])  // an empty download keeps no bytes
        } else {
            throw Problem.notFound("the file of \(task.id) was deleted or has expired")
        }
        let (headers, range) = Self.fileHeaders(request, task: task, size: body.size)
        return try Self.answer(body, range: range, headers: headers)
    }

    /// The header fields of `/file` for a file of `size` bytes, and the `Range` to apply (none when an
    /// `If-Range` does not match the entity tag).
    static func fileHeaders(_ request: HTTPRequest, task: TaskRecord, size: UInt64) -> ([(name: String, value: String)], String?) {
        let etag = "\"\(task.id)-\(size)\""
        let headers: [(name: String, value: String)] = [
            ("Content-Type", task.response?.mimeType ?? "application/octet-stream"), ("Accept-Ranges", "bytes"), ("ETag", etag),
            ("Content-Disposition", "attachment; filename=\"\(Self.quoted(task.response?.suggestedFilename ?? task.id))\""),
            Self.noSniff,
        ]
        let ifRange = request.header("if-range")
        return (headers, ifRange == nil || ifRange == etag ? request.header("range") : nil)
    }

    /// 416 for a body of `size` bytes, with `Content-Range: bytes */size` besides `headers` — but for
    /// their `Content-Type`, the body's: the answer is a problem, `application/problem+json` only.
    static func rangeNotSatisfiable(size: UInt64, headers: [(name: String, value: String)]) -> Problem {
        var problem = Problem(
            status: 416, slug: "range-not-satisfiable", title: "Range Not Satisfiable",
            detail: "the body has \(size) bytes; ask for one range inside it", field: "Range")
        problem.headers = headers.filter { $0.name.lowercased() != "content-type" } + [("Content-Range", "bytes */\(size)")]
        return problem
    }

    /// `DELETE /v1/tasks/{id}/file`: releases the file now instead of at its time-to-live.
    func deleteFile(_ request: HTTPRequest) async throws -> HTTPResponse {
        let task = try await tasks.requireTask(request.parameter("id"), tenant: request.tenant)
        guard task.kind == .download else { throw Problem.notFound("only download tasks have a file") }
        guard task.state == .completed else { throw Problem.conflict("the download is still running") }
        guard try await tasks.files.releaseFile(ofTask: task.id, tenant: request.tenant) else {
            throw Problem.notFound("the file of \(task.id) was already deleted or has expired")
        }
        return .noContent
    }

    /// The origin's Content-Type is served as it came: browsers must not guess another one.
    static let noSniff = (name: "X-Content-Type-Options", value: "nosniff")

    /// A task's kept body, as it is now.
    enum Body {
        /// Its file, open: it is sent even if it is removed before the answer goes out.
        case file(ResponseFile)
        /// The bytes kept in the store.
        case bytes([UInt8])

        var size: UInt64 {
            switch self {
            case .file(let file): file.size
            case .bytes(let bytes): UInt64(bytes.count)
            }
        }

        /// The answer's body for `count` bytes from `first`, which lie inside `size`.
        func slice(first: UInt64, count: UInt64) -> HTTPResponse.Body {
            switch self {
            case .file where count == 0: .bytes([])
            case .file(let file): .file(file, offset: first, length: count)
            case .bytes(let bytes): .bytes(Array(bytes[Int(first)..<Int(first + count)]))
            }
        }
    }

    /// The body a completed task still has: its file (opened now, so it cannot vanish before it is sent)
    /// or its bytes kept in the store; nil when it has neither (none, or deleted, expired or released).
    func currentBody(of task: TaskRecord) async throws -> Body? {
        if let path = task.filePath, let file = try ResponseFile(opening: path) { return .file(file) }
        return try await queries.keptBody(ofTask: task.id).map { .bytes(Array($0)) }
    }

    static func quoted(_ name: String) -> String {
        String(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }.map(Character.init))
    }
}
