import Foundation
import SessionTasks
import TransferModels
import TransferStore

extension TaskRoutes {
    /// `GET /v1/tasks/{id}/data`: a data or upload task's response body, with the origin's Content-Type.
    func data(_ request: HTTPRequest) async throws -> HTTPResponse {
        let task = try await tasks.requireTask(request.parameter("id"), tenant: request.tenant)
        guard task.kind != .download else { throw Problem.notFound("download tasks have a file: /v1/tasks/\(task.id)/file") }
        guard task.state == .completed else { throw Problem.conflict("the body is there once the task completes") }
        let contentType = task.response?.value(forHTTPHeaderField: "Content-Type") ?? "application/octet-stream"
        if let path = task.filePath, let size = Self.fileSize(path) {
            return HTTPResponse(status: 200, headers: [("Content-Type", contentType)], body: .file(path: path, offset: 0, length: size))
        }
        // Small bodies are kept in the store; none (empty, or released at its time-to-live) is an empty body.
        let kept = try await store.keptBody(taskId: task.id).map { Array($0) } ?? []
        return HTTPResponse(status: 200, headers: [("Content-Type", contentType)], body: .bytes(kept))
    }

    /// `GET /v1/tasks/{id}/file`: the downloaded file (`didFinishDownloadingTo`), one byte range at most.
    /// A small download's file is kept in the store and served the same way.
    func file(_ request: HTTPRequest) async throws -> HTTPResponse {
        let task = try await tasks.requireTask(request.parameter("id"), tenant: request.tenant)
        guard task.kind == .download else { throw Problem.notFound("only download tasks have a file") }
        guard task.state == .completed else { throw Problem.conflict("the file is there once the download completes") }
        let gone = Problem.notFound("the file of \(task.id) was deleted or has expired")
        let content: (size: UInt64, slice: (UInt64, UInt64) -> HTTPResponse.Body)
        if let path = task.filePath {
            guard let size = Self.fileSize(path) else { throw gone }
            content = (size, { start, length in .file(path: path, offset: start, length: length) })
        } else if task.bodyIsStored {
            let bytes = try await store.keptBody(taskId: task.id).map { Array($0) } ?? []
            content = (UInt64(bytes.count), { start, length in .bytes(Array(bytes[Int(start)..<Int(start + length)])) })
        } else {
            throw gone
        }
        let size = content.size
        let etag = "\"\(task.id)-\(size)\""
        var headers: [(name: String, value: String)] = [
            ("Content-Type", task.response?.mimeType ?? "application/octet-stream"), ("Accept-Ranges", "bytes"), ("ETag", etag),
            ("Content-Disposition", "attachment; filename=\"\(Self.quoted(task.response?.suggestedFilename ?? task.id))\""),
        ]
        let ifRange = request.header("if-range")
        guard let range = request.header("range"), ifRange == nil || ifRange == etag else {
            return HTTPResponse(status: 200, headers: headers, body: content.slice(0, size))
        }
        guard let (start, end) = Self.byteRange(range, size: size) else {
            headers.append(("Content-Range", "bytes */\(size)"))
            var problem = Problem(
                status: 416, slug: "range-not-satisfiable", title: "Range Not Satisfiable",
                detail: "the file has \(size) bytes; ask for one range inside it", field: "Range")
            problem.headers = headers
            throw problem
        }
        headers.append(("Content-Range", "bytes \(start)-\(end)/\(size)"))
        return HTTPResponse(status: 206, headers: headers, body: content.slice(start, end - start + 1))
    }

    /// `DELETE /v1/tasks/{id}/file`: releases the file now instead of at its time-to-live.
    func deleteFile(_ request: HTTPRequest) async throws -> HTTPResponse {
        let task = try await tasks.requireTask(request.parameter("id"), tenant: request.tenant)
        guard task.kind == .download else { throw Problem.notFound("only download tasks have a file") }
        guard task.state == .completed else { throw Problem.conflict("the download is still running") }
        let gone = Problem.notFound("the file of \(task.id) was already deleted or has expired")
        switch try await store.releaseFile(taskId: task.id, tenant: request.tenant) {
        case .file(let path)?: guard unlink(path) == 0 else { throw gone }
        case .stored?: break
        case nil: throw gone
        }
        return .noContent
    }

    static func fileSize(_ path: String) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt64(info.st_size)
    }

    /// One `bytes=a-b`, `bytes=a-` or `bytes=-n` range inside `size`, inclusive; nil when unsatisfiable.
    static func byteRange(_ header: String, size: UInt64) -> (UInt64, UInt64)? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.hasPrefix("bytes="), !value.contains(","), size > 0 else { return nil }
        let parts = value.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = UInt64(parts[1]), suffix > 0 else { return nil }
            return (size - min(suffix, size), size - 1)
        }
        guard let start = UInt64(parts[0]), start < size else { return nil }
        guard !parts[1].isEmpty else { return (start, size - 1) }
        guard let end = UInt64(parts[1]), end >= start else { return nil }
        return (start, min(end, size - 1))
    }

    static func quoted(_ name: String) -> String {
        String(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }.map(Character.init))
    }
}
