import ObjectStorage
import SessionTasks
import TransferModels

extension TaskRoutes {
    /// `/file` of a download whose file is in the object store (`fileObject`), from whichever node: its
    /// size from the store (HEAD), then the whole object (200) or the one range asked for (206; 416 past
    /// its end), as `/file` answers for a file on disk. The bytes are streamed as the store sends them, with
    /// their length: a read that fails midway cuts the connection, so the client sees an incomplete body.
    func objectFile(_ request: HTTPRequest, task: TaskRecord, key: String) async throws -> HTTPResponse {
        guard let objectStore = tasks.files.objectStore else { throw Self.notConfigured(task) }
        let size = try await Self.size(of: key, in: objectStore, taskId: task.id)
        let (headers, range) = Self.fileHeaders(request, task: task, size: size)
        return try Self.objectAnswer(key, in: objectStore, size: size, range: range, headers: headers)
    }

    /// `/data` of a completed task whose body was kept as a file and put into the object store: 200, 206
    /// or 416 as for a body on disk, streamed from the store.
    func objectData(_ request: HTTPRequest, task: TaskRecord, key: String, headers: [(name: String, value: String)]) async throws
        -> HTTPResponse
    {
        guard let objectStore = tasks.files.objectStore else { throw Self.notConfigured(task) }
        let size = try await Self.size(of: key, in: objectStore, taskId: task.id)
        return try Self.objectAnswer(key, in: objectStore, size: size, range: request.header("range"), headers: headers)
    }

    /// The answer streaming object `key` of `size` bytes, or the one range `range` asks for.
    private static func objectAnswer(
        _ key: String, in objectStore: ObjectStore, size: UInt64, range: String?, headers: [(name: String, value: String)]
    ) throws -> HTTPResponse {
        let (status, first, count, extra) = try Self.objectSlice(range: range, size: size, headers: headers)
        guard count > 0 else { return HTTPResponse(status: status, headers: headers + extra) }
        let bytes = first...(first + count - 1)
        let asked = status == 206 ? bytes : nil
        let stream = ResponseStream(length: count) { stream in
            await Self.copy(objectStore.get(key: key, range: asked), into: stream)
        }
        return HTTPResponse(status: status, headers: headers + extra, body: .stream(stream))
    }

    /// 503: the task's file is in an object store this node does not know.
    private static func notConfigured(_ task: TaskRecord) -> Problem {
        Problem(
            status: 503, slug: "object-store-not-configured", title: "Service Unavailable",
            detail: "the file of \(task.id) is in an object store this node is not configured for (URLSESSIOND_OBJECT_STORE_URL)",
            field: nil)
    }

    /// The object's size; 404 when it is gone (deleted behind the service's back).
    private static func size(of key: String, in objectStore: ObjectStore, taskId: String) async throws -> UInt64 {
        let result: Result<ObjectInfo, ObjectStoreError>
        do {
            result = .success(try await objectStore.head(key: key))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let info): return info.size
        case .failure(let error) where error.isNotFound: throw Problem.notFound("the file of \(taskId) was deleted or has expired")
        case .failure(let error): throw error
        }
    }

    /// Writes what `reader` reads into `stream`, then ends it: cleanly at the object's (or range's) end, cut
    /// when the read fails. A client that leaves stops the read.
    private static func copy(_ reader: ObjectReader, into stream: ResponseStream) async {
        stream.onClose { reader.cancel() }
        while true {  // bounded: the object (or range) ends, the read fails, or the client leaves
            let next: [UInt8]?
            do {
                next = try await reader.next()
            } catch {
                return stream.abort()
            }
            guard let chunk = next else { return stream.finish() }
            guard await stream.write(chunk) else { return reader.cancel() }
        }
    }

    /// The status, first byte, byte count and extra fields of the answer to `range` over `size` bytes.
    private static func objectSlice(
        range: String?, size: UInt64, headers: [(name: String, value: String)]
    ) throws -> (Int, UInt64, UInt64, [(name: String, value: String)]) {
        guard let range else { return (200, 0, size, []) }
        switch RangeRequest.parse(range, size: size) {
        case .whole: return (200, 0, size, [])
        case .range(let first, let last): return (206, first, last - first + 1, [("Content-Range", "bytes \(first)-\(last)/\(size)")])
        case .unsatisfiable: throw Self.rangeNotSatisfiable(size: size, headers: headers)
        }
    }
}
