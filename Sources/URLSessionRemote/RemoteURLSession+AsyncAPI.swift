public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension RemoteURLSession {
    /// `data(for:delegate:)`: the body and the response. A 404 is a response, not an error; a transfer that
    /// failed throws its `URLError` (cancelling the calling task cancels the transfer: `URLError(.cancelled)`).
    public func data(
        for request: URLRequest, delegate: (any RemoteURLSessionDelegate)? = nil
    ) async throws -> (Data, URLResponse) {
        let task = try await self.run(["kind": "data", "request": request.wireObject], delegate: delegate)
        let body = try await self.core.client.send("GET", "/v1/tasks/\(task.identifier)/data", timeout: 600)
        return (body, task.finalResponse)
    }

    /// `data(from:delegate:)`.
    public func data(from url: URL, delegate: (any RemoteURLSessionDelegate)? = nil) async throws -> (Data, URLResponse) {
        try await self.data(for: URLRequest(url: url), delegate: delegate)
    }

    /// `download(for:delegate:)`: the file, fetched from the service to a temporary local file the caller
    /// owns (move or remove it), and the response. `delegate` hears `didWriteData` as the service downloads.
    /// A cancelled download throws `URLError(.cancelled)` whose `downloadTaskResumeData` is set when the
    /// transfer can resume (see ``download(resumeFrom:delegate:)``).
    public func download(
        for request: URLRequest, delegate: (any RemoteURLSessionDelegate)? = nil
    ) async throws -> (URL, URLResponse) {
        let task = try await self.run(["kind": "download", "request": request.wireObject], delegate: delegate)
        return try await self.fetchFile(of: task)
    }

    /// `download(from:delegate:)`.
    public func download(from url: URL, delegate: (any RemoteURLSessionDelegate)? = nil) async throws -> (URL, URLResponse) {
        try await self.download(for: URLRequest(url: url), delegate: delegate)
    }

    /// `download(resumeFrom:delegate:)`: continues a download from the resume data of its cancellation
    /// (`cancel(byProducingResumeData:)`, or a failed download's `URLError.downloadTaskResumeData`).
    public func download(
        resumeFrom resumeData: Data, delegate: (any RemoteURLSessionDelegate)? = nil
    ) async throws -> (URL, URLResponse) {
        let task = try await self.run(
            ["kind": "download", "resumeData": String(decoding: resumeData, as: UTF8.self)], delegate: delegate)
        return try await self.fetchFile(of: task)
    }

    /// `upload(for:from:delegate:)`: sends `bodyData` as the request's body; answers the response's body.
    public func upload(
        for request: URLRequest, from bodyData: Data, delegate: (any RemoteURLSessionDelegate)? = nil
    ) async throws -> (Data, URLResponse) {
        let source: [String: Any]
        if bodyData.count <= Self.inlineUploadLimit {
            source = ["data": ["base64": bodyData.base64EncodedString()]]
        } else {
            source = ["blob": try await self.core.client.uploadBlob(data: bodyData)]
        }
        return try await self.upload(request, source: source, delegate: delegate)
    }

    /// `upload(for:fromFile:delegate:)`: the file goes to the service first (a blob), then to the origin.
    public func upload(
        for request: URLRequest, fromFile fileURL: URL, delegate: (any RemoteURLSessionDelegate)? = nil
    ) async throws -> (Data, URLResponse) {
        let blob = try await self.core.client.uploadBlob(file: fileURL)
        return try await self.upload(request, source: ["blob": blob], delegate: delegate)
    }

    private func upload(
        _ request: URLRequest, source: [String: Any], delegate: (any RemoteURLSessionDelegate)?
    ) async throws -> (Data, URLResponse) {
        var wireRequest = request.wireObject
        wireRequest["httpBody"] = nil
        let task = try await self.run(
            ["kind": "upload", "request": wireRequest, "uploadSource": source], delegate: delegate)
        let body = try await self.core.client.send("GET", "/v1/tasks/\(task.identifier)/data", timeout: 600)
        return (body, task.finalResponse)
    }

    /// Creates the task, resumes it, and waits until its completion was handled; throws its error.
    private func run(
        _ body: [String: Any], delegate: (any RemoteURLSessionDelegate)?
    ) async throws -> RemoteURLSessionTask {
        var body = body
        body["resume"] = false
        let task = try await self.core.makeTask(body: ServiceClient.json(body), delegate: delegate, isConvenience: true)
        let client = self.core.client
        // A download cancelled by its caller keeps what it has: the error carries resume data, for
        // `download(resumeFrom:)`.
        let cancelBody = Data((task is RemoteURLSessionDownloadTask ? #"{"byProducingResumeData": true}"# : "{}").utf8)
        try await withTaskCancellationHandler {
            try await client.send("POST", "/v1/tasks/\(task.identifier)/resume")
            try await self.core.waitForCompletion(of: task)
        } onCancel: {
            // The caller's cancellation is synchronous and the cancel is a call to the service: this task
            // only sends it; the wait above ends with the task's completion (-999), as URLSession's does.
            let call = Task {
                let answer = try? await client.decode(
                    WireCancelResponse.self, "POST", "/v1/tasks/\(task.identifier)/cancel", json: cancelBody, timeout: 120)
                return answer?.resumeData
            }
            task.values.withLock { $0.cancelCall = call }
        }
        guard let error = task.error else { return task }
        // The cancel's answer (its resume data) may come after the completion event.
        let resumeData = await task.values.withLock { $0.cancelCall }?.value
        throw Self.adding(resumeData, to: error)
    }

    /// The task's error, with the resume data its cancellation produced when the service's error lacks it.
    private static func adding(_ resumeData: String?, to error: any Error) -> any Error {
        guard let resumeData, let urlError = error as? URLError, urlError.code == .cancelled,
            urlError.userInfo[WireError.resumeDataKey] == nil
        else { return error }
        var userInfo = urlError.userInfo
        userInfo[WireError.resumeDataKey] = Data(resumeData.utf8)
        return URLError(urlError.code, userInfo: userInfo)
    }

    private func fetchFile(of task: RemoteURLSessionTask) async throws -> (URL, URLResponse) {
        let path = "/v1/tasks/\(task.identifier)/file"
        let file = try await self.core.client.download(path)
        // The local copy is the caller's now; the service's is released as URLSession removes its own.
        _ = try? await self.core.client.send("DELETE", path)
        return (file, task.finalResponse)
    }
}
