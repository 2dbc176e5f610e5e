import Foundation
import JSONCodec
import TestSupport
import Testing
import TransferModels
import TransferStore

@Suite("Tasks in the store, on a real database (SQLite, or PostgreSQL under make test-postgres)")
struct TaskStoreTests {
    /// A store in a temporary directory with one session per tenant name asked for.
    private struct Fixture {
        let fixture: StoreFixture
        let store: TransferStore

        init() async throws {
            fixture = try StoreFixture()
            store = try await fixture.open()
        }

        func session(tenant: String = "t1", _ json: String = "{}") async throws -> SessionRecord {
            let request = try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(json.utf8)).validated()
            guard case .created(let record) = try await store.sessions.createSession(tenant: tenant, request: request, secret: nil) else {
                throw CancellationError()
            }
            return record
        }

        func close() throws {
            defer { fixture.directory.remove() }
            try store.close()
        }
    }

    private func request(_ json: String, kind: SessionKind = .default) throws -> ValidatedTaskRequest {
        try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(json.utf8))
            .validated(session: SessionConfiguration(kind: kind))
    }

    private func dataTask(_ url: String = "https://o.example/a", description: String? = nil) throws -> ValidatedTaskRequest {
        var task = try request(#"{"kind": "data", "request": {"url": "\#(url)"}}"#)
        task.taskDescription = description
        return task
    }

    @Test func taskIdentifiersCountPerSessionAndEventsHaveNoGaps() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let a = try await f.session()
        let b = try await f.session()
        var identifiers: [String: [Int]] = [:]
        for session in [a, b, a, a, b] {
            let task = try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try dataTask())
            identifiers[session.id, default: []].append(task.taskIdentifier)
            #expect(task.state == .suspended && task.sessionId == session.id)
        }
        #expect(identifiers[a.id] == [1, 2, 3])
        #expect(identifiers[b.id] == [1, 2])

        for task in try await f.store.tasks.tasks(sessionId: a.id, after: nil, limit: 10) {
            _ = try await f.store.tasks.completeTask(id: task.id, error: nil)
        }
        _ = try await f.store.sessions.beginInvalidation(id: a.id, tenant: "t1")
        let events = try await f.store.events.events(sessionId: a.id, after: 0, limit: 100)
        #expect(events.map(\.sequence) == [1, 2, 3, 4, 5, 6, 7])
        #expect(
            events.map(\.type) == [
                .taskDidCreateTask, .taskDidCreateTask, .taskDidCreateTask, .taskDidCompleteWithError,
                .taskDidCompleteWithError, .taskDidCompleteWithError, .sessionDidBecomeInvalidWithError,
            ])
        #expect(try await f.store.sessions.session(id: a.id, tenant: "t1")?.lastTaskIdentifier == 3)
        #expect(try await f.store.events.events(sessionId: b.id, after: 0, limit: 100).map(\.sequence) == [1, 2])
    }

    /// Creations arriving together share a transaction (group commit), each in its own savepoint: a
    /// refused one (another tenant's blob) leaves nothing behind and takes nothing from the others.
    @Test func concurrentCreationsCommitTogetherAndARefusedOneUndoesOnlyItself() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let session = try await f.session()
        let foreignBlob =
            #"{"kind": "upload", "request": {"url": "https://o.example/u"}, "uploadSource": {"blob": "blb_0123456789ABCDEFGHIJKL"}}"#
        let requests = try (0..<60).map { index in
            index % 3 == 0 ? try request(foreignBlob) : try dataTask("https://o.example/\(index)")
        }
        let (store, sessionId) = (f.store, session.id)
        let results = await withTaskGroup(of: (Int, Result<TaskRecord, any Error>).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await store.tasks.createTask(tenant: "t1", sessionId: sessionId, request: request)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        var created: [TaskRecord] = []
        for (index, result) in results {
            switch result {
            case .success(let task):
                created.append(task)
                #expect(index % 3 != 0)
            case .failure(let error): #expect(index % 3 == 0 && error as? TaskStoreError == .blobNotFound)
            }
        }
        #expect(created.count == 40)
        #expect(created.map(\.taskIdentifier).sorted() == Array(1...40))
        let stored = try await f.store.tasks.tasks(sessionId: session.id, after: nil, limit: 100)
        #expect(Set(stored.map(\.id)) == Set(created.map(\.id)))
        #expect(try await f.store.events.events(sessionId: session.id, after: 0, limit: 100).map(\.sequence) == Array(1...40))
    }

    @Test func createdEventCarriesTheTaskSummary() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let session = try await f.session()
        let task = try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try dataTask(description: "d"))
        let event = try #require(try await f.store.events.events(sessionId: session.id, after: 0, limit: 1).first)
        #expect(event.taskId == task.id)
        #expect(event.data == #"{"task":{"id":"\#(task.id)","kind":"data","state":"suspended","taskDescription":"d","taskIdentifier":1}}"#)
    }

    @Test func tasksBelongToTheirTenant() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let mine = try await f.session(tenant: "t1")
        let task = try await f.store.tasks.createTask(tenant: "t1", sessionId: mine.id, request: try dataTask())
        #expect(try await f.store.tasks.task(id: task.id, tenant: "t1")?.id == task.id)
        #expect(try await f.store.tasks.task(id: task.id, tenant: "t2") == nil)
        #expect(try await f.store.tasks.task(id: "tsk_nope", tenant: "t1") == nil)
        await #expect(throws: TaskStoreError.sessionNotFound) {
            try await f.store.tasks.createTask(tenant: "t2", sessionId: mine.id, request: try dataTask())
        }
        await #expect(throws: TaskStoreError.sessionNotFound) {
            try await f.store.tasks.createTask(tenant: "t1", sessionId: "ses_0123456789ABCDEFGHIJKL", request: try dataTask())
        }
        #expect(try await f.store.tasks.tasks(sessionId: mine.id, after: nil, limit: 10).count == 1)
    }

    @Test(arguments: [SessionState.invalidating, .invalidated])
    func sessionsBeingInvalidatedTakeNoTasksAndNothingIsCreated(state: SessionState) async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let session = try await f.session()
        // An unfinished task keeps the session `invalidating`; without one it is `invalidated` at once.
        if state == .invalidating {
            _ = try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try dataTask())
        }
        let begun = try #require(try await f.store.sessions.beginInvalidation(id: session.id, tenant: "t1"))
        #expect(begun.0.state == state)
        let eventsBefore = try await f.store.events.events(sessionId: session.id, after: 0, limit: 100)
        let tasksBefore = try await f.store.tasks.tasks(sessionId: session.id, after: nil, limit: 10).map(\.id)
        await #expect(throws: TaskStoreError.sessionNotValid) {
            try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try dataTask())
        }
        #expect(try await f.store.tasks.tasks(sessionId: session.id, after: nil, limit: 10).map(\.id) == tasksBefore)
        #expect(try await f.store.events.events(sessionId: session.id, after: 0, limit: 100) == eventsBefore)
        #expect(try await f.store.sessions.session(id: session.id, tenant: "t1")?.lastTaskIdentifier == Int64(tasksBefore.count))
    }

    /// A claim takes the tenants' queued tasks in turn, oldest first within each, however long one
    /// tenant's backlog is; tasks a node runs, or that are not running, are not queued.
    @Test func claimsTakeTheTenantsQueuedTasksInTurn() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        try await f.store.cluster.registerNode(id: "n1", maximumTransfers: 4)
        var queued: [String: [String]] = [:]
        for (tenant, count) in [("a", 6), ("b", 2), ("c", 3), ("d", 1)] {
            let session = try await f.session(tenant: tenant)
            for _ in 0..<count {
                let task = try await f.store.tasks.createTask(tenant: tenant, sessionId: session.id, request: try dataTask())
                if tenant != "d" { _ = try await f.store.tasks.updateTaskState(id: task.id, to: .running) }  // d's stays suspended
                queued[tenant, default: []].append(task.id)
            }
        }
        let (a, b, c) = (queued["a"]!, queued["b"]!, queued["c"]!)
        // Turn 1: the oldest of a, b, c; turn 2: the next of each; within a claim, oldest first.
        #expect(try await f.store.cluster.claimQueuedTasks(node: "n1", limit: 5).map(\.id) == [a[0], a[1], b[0], b[1], c[0]])
        #expect(try await f.store.cluster.claimQueuedTasks(node: "n1", limit: 5).map(\.id) == [a[2], a[3], a[4], c[1], c[2]])
        #expect(try await f.store.cluster.claimQueuedTasks(node: "n1", limit: 5).map(\.id) == [a[5]])
        #expect(try await f.store.cluster.claimQueuedTasks(node: "n1", limit: 5).isEmpty)
        #expect(try await f.store.cluster.tasks(ofNode: "n1").count == 11)
    }

    @Test func completeTaskRecordsOneCompletionAfterTheCreation() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let session = try await f.session()
        let task = try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try dataTask())
        let error = TransferError(.cannotConnectToHost, failingURL: "https://o.example/a", userInfo: ["reason": "egressPolicy"])
        let completed = try await f.store.tasks.completeTask(
            id: task.id, error: error, counts: TaskByteCounts(sent: 0, expectedToSend: 0, received: 3, expectedToReceive: 3))
        #expect(completed.state == .completed && completed.error == error && completed.completedAt != nil)
        #expect(completed.wire.error == error && completed.wire.progress.fractionCompleted == 1)
        await #expect(throws: TaskStoreError.invalidStateTransition) {
            try await f.store.tasks.completeTask(id: task.id, error: nil)
        }
        await #expect(throws: TaskStoreError.invalidStateTransition) {
            try await f.store.tasks.updateTaskState(id: task.id, to: .running)
        }
        let events = try await f.store.events.events(sessionId: session.id, after: 0, limit: 100)
        #expect(events.map(\.type) == [.taskDidCreateTask, .taskDidCompleteWithError])
        let completion = try #require(events.last)
        #expect(completion.data.hasPrefix(#"{"error":{"code":-1004,"domain":"NSURLErrorDomain","#))
        #expect(completion.data.contains(#""underlying":null"#))
        #expect(completion.data.contains(#""state":"completed""#))
        await #expect(throws: TaskStoreError.taskNotFound) {
            try await f.store.tasks.completeTask(id: "tsk_0123456789ABCDEFGHIJKL", error: nil)
        }
    }

    @Test func metricsAreRecordedBeforeTheCompletionAndTheLastTaskFinishesInvalidation() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let session = try await f.session()
        let one = try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try dataTask())
        let two = try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try dataTask())
        _ = try await f.store.sessions.beginInvalidation(id: session.id, tenant: "t1")
        let metrics = TaskMetrics(
            taskInterval: .init(start: .nowMilliseconds, duration: 0.25), redirectCount: 1,
            transactionMetrics: [TaskTransactionMetrics(request: try #require(one.originalRequest))])
        let completed = try await f.store.tasks.completeTask(id: one.id, error: nil, metrics: metrics)
        // Read back from the row: the same JSON as was written (dates to the millisecond).
        #expect(try WireJSON.encode(completed.metrics) == WireJSON.encode(metrics))
        #expect(try await f.store.sessions.session(id: session.id, tenant: "t1")?.state == .invalidating)
        _ = try await f.store.tasks.completeTask(id: two.id, error: .cancelled(failingURL: nil))
        #expect(try await f.store.sessions.session(id: session.id, tenant: "t1")?.state == .invalidated)
        let events = try await f.store.events.events(sessionId: session.id, after: 0, limit: 100)
        #expect(events.map(\.sequence) == [1, 2, 3, 4, 5, 6])
        #expect(
            events.map(\.type) == [
                .taskDidCreateTask, .taskDidCreateTask, .taskDidFinishCollectingMetrics, .taskDidCompleteWithError,
                .taskDidCompleteWithError, .sessionDidBecomeInvalidWithError,
            ])
        // The metrics event is exactly the encoding of what the delegate method receives.
        let expected = try WireJSON.encode(
            TaskMetricsEventData(
                task: completed.summary, metrics: EncodedJSON(String(decoding: try WireJSON.encode(metrics), as: UTF8.self))))
        #expect(Array(events[2].data.utf8) == expected)
    }

    @Test func stateFiltersAndPagination() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let session = try await f.session()
        var ids: [String] = []
        for index in 0..<5 {
            let request = index % 2 == 0 ? try dataTask() : try request(#"{"kind": "download", "request": {"url": "http://o/f"}}"#)
            ids.append(try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: request).id)
        }
        _ = try await f.store.tasks.updateTaskState(id: ids[1], to: .running)
        _ = try await f.store.tasks.updateTaskState(id: ids[2], to: .canceling)
        _ = try await f.store.tasks.completeTask(id: ids[3], error: nil)

        #expect(try await f.store.tasks.tasks(sessionId: session.id, kind: .download, after: nil, limit: 10).map(\.id) == [ids[1], ids[3]])
        #expect(
            try await f.store.tasks.tasks(sessionId: session.id, state: .suspended, after: nil, limit: 10).map(\.id) == [ids[0], ids[4]])
        #expect(
            try await f.store.tasks.tasks(sessionId: session.id, kind: .data, state: .canceling, after: nil, limit: 10).map(\.id) == [
                ids[2]
            ])
        #expect(try await f.store.tasks.unfinishedTasks().map(\.id) == [ids[0], ids[1], ids[2], ids[4]])

        var seen: [String] = []
        var after: Int64?
        for _ in 0..<10 {
            let page = try await f.store.tasks.tasks(sessionId: session.id, after: after, limit: 2)
            seen += page.map(\.id)
            guard page.count == 2 else { break }
            after = page.last?.rowid
        }
        #expect(seen == ids)
    }

    @Test func stateChangesFollowURLSession() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let session = try await f.session()
        let task = try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try dataTask())
        #expect(task.startedAt == nil && task.currentRequest == nil)
        let running = try await f.store.tasks.updateTaskState(id: task.id, to: .running)
        #expect(running.state == .running && running.startedAt != nil)
        #expect(running.currentRequest == task.originalRequest)
        let again = try await f.store.tasks.updateTaskState(id: task.id, to: .running)
        #expect(try WireJSON.encode(again.wire) == WireJSON.encode(running.wire), "resume() twice is a no-op")
        let suspended = try await f.store.tasks.updateTaskState(id: task.id, to: .suspended)
        #expect(suspended.wire.startedAt.map(WireJSON.formatTimestamp) == running.wire.startedAt.map(WireJSON.formatTimestamp))
        _ = try await f.store.tasks.updateTaskState(id: task.id, to: .canceling)
        await #expect(throws: TaskStoreError.invalidStateTransition) {
            try await f.store.tasks.updateTaskState(id: task.id, to: .running)
        }
        await #expect(throws: TaskStoreError.invalidStateTransition) {
            try await f.store.tasks.updateTaskState(id: task.id, to: .completed)
        }
        await #expect(throws: TaskStoreError.taskNotFound) {
            try await f.store.tasks.updateTaskState(id: "tsk_0123456789ABCDEFGHIJKL", to: .running)
        }
    }

    @Test func responseAndProgressAreRecordedUntilCompletion() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let session = try await f.session()
        let task = try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try dataTask())
        let response = HTTPResponseSnapshot(url: "https://o.example/b", statusCode: 200, allHeaderFields: ["Content-Length": "10"])
        let redirected = URLRequestSnapshot(url: "https://o.example/b")
        let recorded = try await f.store.tasks.recordResponse(id: task.id, response: response, currentRequest: redirected)
        #expect(recorded.response == response && recorded.currentRequest == redirected)

        try await f.store.tasks.recordProgress(id: task.id, sent: 0, expectedToSend: 0, received: 4, expectedToReceive: 10)
        var read = try #require(try await f.store.tasks.task(id: task.id, tenant: "t1"))
        #expect(read.countOfBytesReceived == 4 && read.countOfBytesExpectedToReceive == 10)
        #expect(read.wire.progress.fractionCompleted == 0.4)

        _ = try await f.store.tasks.completeTask(
            id: task.id, error: nil, counts: TaskByteCounts(sent: 0, expectedToSend: 0, received: 10, expectedToReceive: 10))
        try await f.store.tasks.recordProgress([task.id: TaskByteCounts(sent: 0, expectedToSend: 0, received: 5, expectedToReceive: 10)])
        read = try #require(try await f.store.tasks.task(id: task.id, tenant: "t1"))
        #expect(read.countOfBytesReceived == 10, "a late progress report cannot move a completed task back")
        await #expect(throws: TaskStoreError.invalidStateTransition) {
            try await f.store.tasks.recordResponse(id: task.id, response: response)
        }
    }

    @Test func uploadsKeepTheirBodyAndCheckTheirBlob() async throws {
        let f = try await Fixture()
        defer { try? f.close() }
        let session = try await f.session()
        let inline = try await f.store.tasks.createTask(
            tenant: "t1", sessionId: session.id,
            request: try request(#"{"kind": "upload", "request": {"url": "http://o/u"}, "uploadSource": {"data": {"text": "hello"}}}"#))
        #expect(inline.uploadSource == .inline(size: 5) && inline.countOfBytesExpectedToSend == 5)
        #expect(try await f.store.tasks.inlineUploadData(taskId: inline.id) == Data("hello".utf8))

        let blobID = ResourceID.make(prefix: "blb")
        _ = try await f.store.blobs.insertBlob(BlobRecord(id: blobID, tenant: "t1", size: 42, digest: "sha-256=:x:"))
        let blobJSON = #"{"kind": "upload", "request": {"url": "http://o/u"}, "uploadSource": {"blob": "\#(blobID)"}}"#
        let fromBlob = try await f.store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try request(blobJSON))
        #expect(fromBlob.uploadSource == .blob(id: blobID, size: 42) && fromBlob.countOfBytesExpectedToSend == 42)
        #expect(try await f.store.tasks.inlineUploadData(taskId: fromBlob.id) == nil)

        let other = try await f.session(tenant: "t2")
        await #expect(throws: TaskStoreError.blobNotFound) {
            try await f.store.tasks.createTask(tenant: "t2", sessionId: other.id, request: try request(blobJSON))
        }
        #expect(try await f.store.tasks.tasks(sessionId: other.id, after: nil, limit: 10).isEmpty)
        #expect(try await f.store.events.events(sessionId: other.id, after: 0, limit: 10).isEmpty)
    }

    @Test func everyColumnSurvivesReopeningAndTheCompletionSecretIsSealed() async throws {
        let f = try await Fixture()
        defer { f.fixture.directory.remove() }  // the store is closed below, before reopening
        let session = try await f.session()
        let secret = WebhookSecret.generate()
        let created = try await f.store.tasks.createTask(
            tenant: "t1", sessionId: session.id,
            request: try request(
                #"""
                {"kind": "data", "request": {"url": "http://o/p", "httpBody": {"json": {"z": 1, "a": 2}}},
                 "taskDescription": "all", "priority": 0.25, "earliestBeginDate": "2026-11-22T03:00:00.125Z",
                 "countOfBytesClientExpectsToSend": 9, "completion": {"url": "https://c/done", "secret": "\#(secret)"},
                 "expectedDigest": "sha-256=:\#(String(repeating: "A", count: 43))=:"}
                """#))
        let resumed = try await f.store.tasks.createTask(
            tenant: "t1", sessionId: session.id, request: try request(#"{"kind": "download", "resumeData": "opaque-resume"}"#))
        let metrics = TaskMetrics(taskInterval: .init(start: .nowMilliseconds, duration: 1), redirectCount: 0, transactionMetrics: [])
        let completed = try await f.store.tasks.completeTask(
            id: created.id, error: nil, filePath: "/data/bodies/x", fileExpiresAt: .nowMilliseconds, metrics: metrics)
        try f.store.close()

        #expect(try await !f.fixture.holds(secret), "the completion secret must not be stored in clear")

        let reopened = try await f.fixture.open()
        defer { try? reopened.close() }
        let read = try #require(try await reopened.tasks.task(id: created.id, tenant: "t1"))
        // Timestamps are kept to the millisecond, so compare what the API shows.
        #expect(try WireJSON.encode(read.wire) == WireJSON.encode(completed.wire))
        #expect(try WireJSON.encode(read.metrics) == WireJSON.encode(completed.metrics))
        #expect(read.completionSecret == completed.completionSecret)
        #expect(read.completion == completed.completion && read.expectedDigest == completed.expectedDigest)
        #expect(read.countOfBytesClientExpectsToSend == 9 && read.filePath == "/data/bodies/x")
        #expect(read.fileExpiresAt != nil && read.uploadSource == nil && read.resumeData == nil)
        #expect(read.originalRequest?.httpBody == Data(#"{"z":1,"a":2}"#.utf8), "JSON bodies keep their member order")
        #expect(try reopened.tasks.completionSecret(of: read) == secret)
        #expect(read.wire.location == nil, "only downloads have a location")
        let download = try #require(try await reopened.tasks.task(id: resumed.id))
        #expect(download.originalRequest == nil && download.resumeData == "opaque-resume")
        #expect(download.wire.originalRequest == nil)
        #expect(try await reopened.tasks.unfinishedTasks().map(\.id) == [resumed.id])
        let finished = try await reopened.tasks.completeTask(id: resumed.id, error: nil, filePath: "/data/downloads/y")
        #expect(finished.wire.location == "/v1/tasks/\(resumed.id)/file")
    }
}

/// The API's paths, as the control plane serves them.
private struct APIPathsForTests: TaskBodyLocations {
    func fileLocation(ofTask id: String) -> String { "/v1/tasks/\(id)/file" }
    func dataLocation(ofTask id: String) -> String { "/v1/tasks/\(id)/data" }
}

extension TaskRecord {
    fileprivate var wire: TransferTask { wire(locations: APIPathsForTests()) }
}
