public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension RemoteURLSession {
    /// `dataTask(with:)`: a suspended data task; `resume()` starts it. Asynchronous, unlike URLSession's,
    /// because the service makes the task (and gives its `taskIdentifier`). Its delegate calls go to the
    /// session's delegate.
    public func dataTask(with request: URLRequest, options: RemoteURLSessionTask.Options = .init()) async throws
        -> RemoteURLSessionDataTask
    {
        try await self.makeTask(["kind": "data", "request": request.wireObject], options: options)
    }

    /// `downloadTask(with:)`: the session's delegate gets `didWriteData`, then `didFinishDownloadingTo` with
    /// the file fetched to a temporary local file, then `didCompleteWithError`.
    public func downloadTask(with request: URLRequest, options: RemoteURLSessionTask.Options = .init()) async throws
        -> RemoteURLSessionDownloadTask
    {
        try await self.makeTask(["kind": "download", "request": request.wireObject], options: options)
    }

    /// `downloadTask(with:)` for a URL.
    public func downloadTask(with url: URL, options: RemoteURLSessionTask.Options = .init()) async throws
        -> RemoteURLSessionDownloadTask
    {
        try await self.downloadTask(with: URLRequest(url: url), options: options)
    }

    /// `downloadTask(withResumeData:)`.
    public func downloadTask(withResumeData resumeData: Data, options: RemoteURLSessionTask.Options = .init())
        async throws -> RemoteURLSessionDownloadTask
    {
        try await self.makeTask(
            ["kind": "download", "resumeData": String(decoding: resumeData, as: UTF8.self)], options: options)
    }

    /// `uploadTask(with:fromFile:)`: the file goes to the service first (a blob, which a background
    /// session needs too), then to the origin once the task is resumed.
    public func uploadTask(
        with request: URLRequest, fromFile fileURL: URL, options: RemoteURLSessionTask.Options = .init()
    ) async throws -> RemoteURLSessionUploadTask {
        let blob = try await self.core.client.uploadBlob(file: fileURL)
        var wireRequest = request.wireObject
        wireRequest["httpBody"] = nil
        return try await self.makeTask(
            ["kind": "upload", "request": wireRequest, "uploadSource": ["blob": blob]], options: options)
    }

    /// `uploadTask(with:from:)`.
    public func uploadTask(
        with request: URLRequest, from bodyData: Data, options: RemoteURLSessionTask.Options = .init()
    ) async throws -> RemoteURLSessionUploadTask {
        let source: [String: Any]
        if bodyData.count <= Self.inlineUploadLimit {
            source = ["data": ["base64": bodyData.base64EncodedString()]]
        } else {
            source = ["blob": try await self.core.client.uploadBlob(data: bodyData)]
        }
        var wireRequest = request.wireObject
        wireRequest["httpBody"] = nil
        return try await self.makeTask(["kind": "upload", "request": wireRequest, "uploadSource": source], options: options)
    }

    private func makeTask<T: RemoteURLSessionTask>(_ body: [String: Any], options: RemoteURLSessionTask.Options)
        async throws -> T
    {
        var body = body.merging(options.wireObject) { $1 }
        body["resume"] = false
        if let mirrors = options.mirrors, let request = body["request"] as? [String: Any], let url = request["url"] as? String {
            body["mirrors"] = [url] + mirrors.map(\.absoluteString).filter { $0 != url }
        }
        let task = try await self.core.makeTask(body: ServiceClient.json(body), delegate: nil, isConvenience: false)
        guard let typed = task as? T else { throw URLError(.badServerResponse) }
        return typed
    }
}
