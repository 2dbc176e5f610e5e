internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

extension SessionCore {
    /// Starts the loop that follows the session's events for as long as the session object lives.
    ///
    /// The one unstructured task of the library: URLSession, too, delivers events on its own queue for as
    /// long as the session exists, and no caller's scope lasts that long. It is cancelled by
    /// `RemoteURLSession.deinit` and when the session is invalidated.
    func startFollowing(sessionID: String) {
        let loop = Task { await self.follow(sessionID: sessionID) }
        self.follower.withLock { $0 = loop }
    }

    /// Reads the event stream, reconnecting with `Last-Event-ID` after a dropped connection or a service
    /// restart, until the session is invalidated (204), the service refuses (401, 404), or cancellation.
    private func follow(sessionID: String) async {
        var failures = 0
        while !Task.isCancelled {  // bounded by cancellation; each failed turn sleeps (backoff up to 2 s)
            do {
                for try await event in EventStreamConnection.open(self.client, sessionID: sessionID, after: self.lastSequence) {
                    failures = 0
                    await self.handle(event)
                }
            } catch is EventStreamConnection.Ended {
                self.stopFollowing(error: URLError(.cancelled))
                return
            } catch let error as RemoteServiceError where [401, 403, 404].contains(error.status) {
                self.stopFollowing(error: error)
                return
            } catch {
                failures += 1
            }
            let pause = min(2.0, 0.05 * pow(2.0, Double(min(failures, 6))))
            try? await Task.sleep(for: .milliseconds(Int(pause * 1000)))
        }
    }

    /// Handles one event: brings its task up to date, calls the delegate, and wakes who waits for it.
    func handle(_ event: WireEvent) async {
        // Recorded before the delegate is called: across client restarts each event reaches the delegate at
        // most once, as with URLSession, whose temporary file is gone after `didFinishDownloadingTo` even
        // if the app is killed inside it. (After the call, a client killed at the wrong moment would hear
        // the file twice.)
        self.lastSequence = max(self.lastSequence, event.sequence)
        if self.configuration.kind == .background && !self.isShared { self.storeSequence(self.lastSequence) }
        let session = self.owner.withLock { $0.value }
        // A session-wide challenge names the task that met it, but is the session delegate's question.
        guard let taskID = event.taskId, event.type != "session.didReceiveChallenge" else {
            await self.handleSessionEvent(event, session: session)
            return
        }
        guard let entry = await self.entry(for: taskID, event: event) else {
            if self.decides(event) { await self.answer(event, with: Self.defaultAnswer(to: event)) }
            return
        }
        let task = entry.task
        if let summary = event.data.task {
            task.values.withLock { values in
                values.state = RemoteURLSessionTask.state(named: summary.state)
                values.taskDescription = summary.taskDescription
            }
        }
        let delegate = entry.delegate ?? self.delegate
        switch event.type {
        case "downloadTask.didWriteData":
            let written = event.data.totalBytesWritten ?? 0
            let expected = event.data.totalBytesExpectedToWrite ?? -1
            task.values.withLock { ($0.countOfBytesReceived, $0.countOfBytesExpectedToReceive) = (written, expected) }
            task.updateProgress()
            if let session, let download = task as? RemoteURLSessionDownloadTask {
                await delegate?.urlSession(
                    session, downloadTask: download, didWriteData: event.data.bytesWritten ?? 0, totalBytesWritten: written,
                    totalBytesExpectedToWrite: expected)
            }
        case "downloadTask.didResumeAtOffset":
            if let session, let download = task as? RemoteURLSessionDownloadTask {
                await delegate?.urlSession(
                    session, downloadTask: download, didResumeAtOffset: event.data.fileOffset ?? 0,
                    expectedTotalBytes: event.data.expectedTotalBytes ?? -1)
            }
        case "dataTask.didReceiveData":
            let received = event.data.totalBytesReceived ?? 0
            let expected = event.data.totalBytesExpectedToReceive ?? -1
            task.values.withLock { ($0.countOfBytesReceived, $0.countOfBytesExpectedToReceive) = (received, expected) }
            task.updateProgress()
        case "task.didSendBodyData":
            let sent = event.data.totalBytesSent ?? 0
            let expected = event.data.totalBytesExpectedToSend ?? 0
            task.values.withLock { ($0.countOfBytesSent, $0.countOfBytesExpectedToSend) = (sent, expected) }
            if let session {
                await delegate?.urlSession(
                    session, task: task, didSendBodyData: event.data.bytesSent ?? 0, totalBytesSent: sent,
                    totalBytesExpectedToSend: expected)
            }
        case "dataTask.didReceiveResponse":
            let response = event.data.response?.httpURLResponse
            task.values.withLock { $0.response = response ?? $0.response }
            self.responseArrived(for: task.identifier)
            var answer = Self.defaultAnswer(to: event)
            // As URLSession's completion-handler tasks, the async API's get no `didReceive response`: allowed.
            if let dataTask = task as? RemoteURLSessionDataTask, !entry.isConvenience {
                answer = await DecisionQuestions.response(event, dataTask: dataTask, session: session, delegate: delegate)
            }
            if self.decides(event) { await self.answer(event, with: answer) }
        case "task.willPerformHTTPRedirection", "task.didReceiveChallenge", "task.willBeginDelayedRequest",
            "dataTask.willCacheResponse":
            await self.decide(event, entry: entry, session: session, delegate: delegate)
        case "task.taskIsWaitingForConnectivity":
            if let session { await delegate?.urlSession(session, taskIsWaitingForConnectivity: task) }
        case "downloadTask.didFinishDownloadingTo":
            guard !entry.isConvenience, let location = event.data.location,
                let download = task as? RemoteURLSessionDownloadTask
            else { break }
            await self.deliverFile(at: location, of: download, to: delegate, session: session)
        case "task.didFinishCollectingMetrics":
            if let session, let metrics = event.data.metrics {
                await delegate?.urlSession(session, task: task, didFinishCollecting: RemoteURLSessionTaskMetrics(metrics))
            }
        case "dataTask.didBecomeDownloadTask":
            await self.becomeDownload(entry, session: session, delegate: delegate)
        case "task.didCompleteWithError":
            await self.complete(task, event: event, delegate: delegate, session: session)
        default:
            break
        }
    }

    private func handleSessionEvent(_ event: WireEvent, session: RemoteURLSession?) async {
        switch event.type {
        case "session.didBecomeInvalidWithError":
            if let session { await self.delegate?.urlSession(session, didBecomeInvalidWithError: event.data.error?.foundationError) }
            self.stopFollowing(error: URLError(.cancelled))
            self.cancelFollowing()
        case "session.didFinishEventsForBackgroundURLSession":
            if let session { await self.delegate?.urlSessionDidFinishEvents(forBackgroundURLSession: session) }
        case "session.didReceiveChallenge" where self.decides(event):
            await self.answer(event, with: await DecisionQuestions.sessionChallenge(event, session: session, delegate: self.delegate))
        default:
            break
        }
    }

    /// The task of an event; for a background session, a task of an earlier run of the client is read
    /// from the service, as URLSession recreates the tasks of a relaunched app's background session.
    private func entry(for taskID: String, event: WireEvent) async -> Entry? {
        if let entry = self.entries[taskID] { return entry }
        guard self.configuration.kind == .background, !self.isShared,
            let wire = try? await self.client.decode(WireTask.self, "GET", "/v1/tasks/\(taskID)")
        else { return nil }
        let task = RemoteURLSessionTask.taskClass(ofKind: wire.kind).init(wire: wire, core: self)
        let entry = Entry(task: task, delegate: nil, isConvenience: false)
        self.entries[taskID] = entry
        return entry
    }

    /// Fetches the file to a temporary local one, hands it to the delegate, then removes it here and on
    /// the service (which keeps it until deleted, like URLSession's temporary file until the call returns).
    private func deliverFile(
        at location: String, of task: RemoteURLSessionDownloadTask, to delegate: (any RemoteURLSessionDelegate)?,
        session: RemoteURLSession?
    ) async {
        guard let session, let delegate else { return }
        do {
            let file = try await self.client.download(location)
            await delegate.urlSession(session, downloadTask: task, didFinishDownloadingTo: file)
            try? FileManager.default.removeItem(at: file)
            _ = try? await self.client.send("DELETE", location)
        } catch {
            // URLSession reports a file it could not hand over as the task's error.
            task.values.withLock { $0.error = $0.error ?? URLError(.cannotOpenFile, userInfo: [NSUnderlyingErrorKey: error]) }
        }
    }

    private func complete(
        _ task: RemoteURLSessionTask, event: WireEvent, delegate: (any RemoteURLSessionDelegate)?,
        session: RemoteURLSession?
    ) async {
        let fileError = task.values.withLock { $0.error }
        if let wire = try? await self.client.decode(WireTask.self, "GET", "/v1/tasks/\(task.identifier)") {
            task.update(from: wire)
        }
        task.values.withLock { values in
            values.state = .completed
            values.error = values.error ?? event.data.error?.foundationError ?? fileError
        }
        if let former = self.entries[task.identifier]?.formerTask {
            let (response, error) = task.values.withLock { ($0.response, $0.error) }
            former.values.withLock { ($0.state, $0.response, $0.error) = (.completed, response ?? $0.response, error) }
        }
        if let session { await delegate?.urlSession(session, task: task, didCompleteWithError: task.error) }
        let entry = self.entries.removeValue(forKey: task.identifier)
        for observer in entry?.completionObservers ?? [] { observer(task) }
        for waiter in (entry?.waiters ?? []) + (entry?.responseWaiters ?? []) { waiter.resume() }
    }
}
