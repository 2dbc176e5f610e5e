import Foundation
import HTTPCaching
import Logging
import TransferEngine
import TransferModels
import TransferStore

extension TaskRunner {
    /// Prepares attempt `number` of a task that runs: with `askDelayed`, `task.willBeginDelayedRequest`
    /// decides first (`continueLoading`, `cancel`, or `useNewRequest`; no answer continues, as URLSession
    /// does without the method); then the engine's job is built — with `continuing`, a download whose
    /// partial file was checkpointed continues it (`Range` + `If-Range`). Returns the lifecycle's next
    /// input; a `TransferError` means the task cannot start.
    func prepareAttempt(
        _ number: Int, of record: TaskRecord, session known: SessionRecord?, continuing: Bool, askDelayed: Bool
    ) async throws -> TaskLifecycle.Input {
        var session = known
        if session == nil { session = try await store.sessions.session(id: record.sessionId, tenant: record.tenant) }
        guard let session else { throw TaskStoreError.sessionNotFound }
        var task = record
        if askDelayed {
            task.earliestBeginDate = nil  // this attempt has waited
            if session.delegate?.decisions.contains(.taskWillBeginDelayedRequest) == true,
                let request = task.currentRequest ?? task.originalRequest
            {
                let probe = ActiveTask(record: task, session: session, started: Date(), partialPath: nil, number: number)
                let answer = await questions.ask(
                    probe.event { .willBeginDelayedRequest($0, request: request) }, timeout: probe.decisionTimeout)
                switch questions.delayedDisposition(answer, task: probe) {
                case .continueLoading:
                    break
                case .cancel:
                    return .cancel(producingResumeData: false)
                case .useNewRequest(let replacement):
                    try await store.tasks.replaceCurrentRequest(id: task.id, with: replacement)
                    task.currentRequest = replacement
                }
            }
        }
        var job: TransferJob
        do {
            let made = try await jobs.makeJob(for: task, session: session, attempt: number)
            job = made.job
            if let stale = made.staleRevalidation, let background = cache.backgroundRevalidation(of: job, stale) {
                engine.start(background)
            }
        } catch let noPath as NoUsablePath {
            return try attemptWithoutPath(number, of: task, session: session, noPath)
        } catch {
            files.removeFetchedBlob(of: TransferID(taskId: task.id, attempt: number))  // the engine will not read it
            throw error
        }
        if continuing, task.kind == .download {
            // The stopped attempt's checkpoint and response head may still be queued for the store.
            await writer.flush()
            if let latest = try await store.tasks.task(id: task.id) {
                (task.partialPath, task.response) = (latest.partialPath, latest.response)
            }
        }
        if continuing, let resume = Self.resumePoint(of: task) {
            (job.downloadPath, job.resumeOffset, job.ifRange) = (resume.path, resume.offset, resume.validator)
            job.resumeSegments = resume.segments
            job.storedResponse = nil  // the kept bytes continue the network load
        } else {
            if let stale = task.partialPath { TaskFiles.removePartialFile(stale) }  // an attempt that cannot be continued
            if task.resumeData != nil { continueFromResumeData(task, job: &job) }  // a token's file, once
        }
        let prepared = job
        let accepted = table.withLock { state -> Bool in
            guard var entry = state.entries[task.id], entry.lifecycle.activity == .preparing(attempt: number) else { return false }
            let started = entry.firstStarted ?? Date()
            var active = ActiveTask(record: task, session: session, started: started, partialPath: prepared.downloadPath, number: number)
            if case .stream(let stream) = prepared.request.body { active.uploadStream = stream }
            var job = prepared
            job.decidesRedirects = active.decidesRedirects
            job.decidesResponse = active.decidesResponse
            job.decidesChallenges = active.decidesChallenges
            job.decidesSessionChallenges = active.decidesChallenges  // either method hears TLS challenges
            entry.firstStarted = started
            entry.prepared = (job, active)
            state.entries[task.id] = entry
            return true
        }
        if !accepted {
            files.removeFetchedBlob(of: TransferID(taskId: task.id, attempt: number))  // the engine will not read it
            logger.debug("A prepared attempt is no longer wanted", metadata: ["task.id": "\(task.id)"])
        }
        return .prepared(attempt: number)
    }
}
