internal import Foundation

extension SessionCore {
    /// Whether the transfer waits for this event's answer: its type is one the session's service-side
    /// delegate lists (else a decision event is only a notification, or is not sent at all).
    nonisolated func decides(_ event: WireEvent) -> Bool {
        self.decisionEventTypes.contains(event.type)
    }

    /// A task's decision event: the delegate is asked and its answer sent, when the session listed the event
    /// (else the event is a notification, which the protocol does not carry).
    func decide(_ event: WireEvent, entry: Entry, session: RemoteURLSession?, delegate: (any RemoteURLSessionDelegate)?) async {
        guard self.decides(event) else { return }
        let task = entry.task
        var answer = Self.defaultAnswer(to: event)
        switch event.type {
        case "task.willPerformHTTPRedirection":
            answer = await DecisionQuestions.redirection(event, task: task, session: session, delegate: delegate)
        case "task.didReceiveChallenge":
            answer = await DecisionQuestions.taskChallenge(event, task: task, session: session, delegate: delegate)
        case "task.willBeginDelayedRequest":
            answer = await DecisionQuestions.delayedRequest(event, task: task, session: session, delegate: delegate)
        case "dataTask.willCacheResponse":
            // As URLSession's completion-handler tasks, the async API's are not asked: the proposal is stored.
            if let dataTask = task as? RemoteURLSessionDataTask, !entry.isConvenience {
                answer = await DecisionQuestions.caching(event, dataTask: dataTask, session: session, delegate: delegate)
            }
        default:
            break
        }
        await self.answer(event, with: answer)
    }

    /// Sends the delegate's answer (`answerDecision`) before the next event is handled, since the transfer
    /// waits for it only `decisionTimeout`.
    func answer(_ event: WireEvent, with body: Data) async {
        guard let id = try? await self.sessionID() else { return }
        do {
            try await self.client.send("POST", "/v1/sessions/\(id)/events/\(event.id)/answer", json: body, timeout: 30)
        } catch {
            // 409: the time ran out (or the task ended) and the default handling was applied; any other
            // failure leaves the same outcome once the time runs out. Nothing is left to do either way.
        }
    }

    /// `dataTask.didBecomeDownloadTask` (after a `.becomeDownload` disposition): the task's events are a
    /// download's from now on, so its object becomes a download task, as URLSession hands the delegate a
    /// new download task for the data task.
    func becomeDownload(_ entry: Entry, session: RemoteURLSession?, delegate: (any RemoteURLSessionDelegate)?) async {
        guard let dataTask = entry.task as? RemoteURLSessionDataTask,
            let wire = try? await self.client.decode(WireTask.self, "GET", "/v1/tasks/\(dataTask.identifier)"),
            let download = RemoteURLSessionTask.taskClass(ofKind: wire.kind).init(wire: wire, core: self)
                as? RemoteURLSessionDownloadTask
        else { return }
        self.entries[dataTask.identifier]?.task = download
        self.entries[dataTask.identifier]?.formerTask = dataTask
        if let session { await delegate?.urlSession(session, dataTask: dataTask, didBecome: download) }
    }

    /// The answer URLSession's handling without a delegate gives, for a decision nobody here can take (a
    /// task this client does not know, a session object gone): sent at once rather than waited out.
    nonisolated static func defaultAnswer(to event: WireEvent) -> Data {
        let disposition =
            switch event.type {
            case "task.willPerformHTTPRedirection": "follow"
            case "task.didReceiveChallenge", "session.didReceiveChallenge": "performDefaultHandling"
            case "dataTask.willCacheResponse": event.data.proposedResponse?.storagePolicy ?? "allowed"
            case "task.willBeginDelayedRequest": "continueLoading"
            default: "allow"
            }
        return DecisionQuestions.json(["disposition": disposition])
    }
}
