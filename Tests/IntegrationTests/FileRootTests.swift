import Foundation
import TestSupport
import Testing

/// `file:` URLs (`URLSESSIOND_EXTRA_PROTOCOLS=file`) read only inside `URLSESSIOND_FILE_ROOT`: the path is
/// resolved as the kernel opens it (symlinks and `..` followed) when the task is created (422) and again
/// when its transfer is prepared (-1102 `noPermissionsToReadFile`, `userInfo.reason` `outsideFileRoot`).
@Suite("File root")
struct FileRootTests {
    /// A temporary tree: `root/` (the file root, with `inside.txt`) beside `outside/secret.txt`.
    struct Tree {
        let directory: TemporaryDirectory
        var root: String { directory.appending("root").path }
        var secret: String { directory.appending("outside/secret.txt").path }
        var inside: String { root + "/inside.txt" }
        static let insideText = "inside the root\n"
        static let secretText = "a secret outside the root\n"

        init() throws {
            directory = try TemporaryDirectory.make(prefix: "file-root")
            let manager = FileManager.default
            try manager.createDirectory(atPath: directory.appending("root/sub").path, withIntermediateDirectories: true)
            try manager.createDirectory(atPath: directory.appending("outside").path, withIntermediateDirectories: true)
            try Self.insideText.write(toFile: directory.appending("root/inside.txt").path, atomically: false, encoding: .utf8)
            try Self.secretText.write(toFile: directory.appending("outside/secret.txt").path, atomically: false, encoding: .utf8)
        }

        var environment: [String: String] {
            TaskEnvironment.loopback.merging(["URLSESSIOND_EXTRA_PROTOCOLS": "file", "URLSESSIOND_FILE_ROOT": root]) { $1 }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func fileNeedsARootThatIsADirectory() async throws {
        let tree = try Tree()
        defer { tree.directory.remove() }
        let cases: [(root: String?, says: String)] = [
            (nil, "is required when URLSESSIOND_EXTRA_PROTOCOLS lists file"),
            (tree.inside, "is not a directory"),
            (tree.root + "/absent", "does not exist"),
        ]
        for (root, says) in cases {
            var environment = ["URLSESSIOND_EXTRA_PROTOCOLS": "ftp,file"]
            environment["URLSESSIOND_FILE_ROOT"] = root
            let log = try await expectStartupRefusal(environment: environment)
            #expect(log.contains("URLSESSIOND_FILE_ROOT") && log.contains(says), "\(String(describing: root)): \(log)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFileInsideTheRootTransfers() async throws {
        let tree = try Tree()
        defer { tree.directory.remove() }
        try await withTaskService(environment: tree.environment) { api, _ in
            let session = try await api.makeSession()
            // Plain, through a `..` that stays inside, and with the localhost authority: all the same file.
            for url in ["file://\(tree.inside)", "file://\(tree.root)/sub/../inside.txt", "file://localhost\(tree.inside)"] {
                let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
                #expect(isNull(task["error"]), "\(url): \(task)")
                #expect(try await api.taskData(task.taskID).text == Tree.insideText, "\(url)")
            }
            let download = try await api.runTask(session: session, ["kind": "download", "request": ["url": "file://\(tree.inside)"]])
            #expect(isNull(download["error"]), "\(download)")
            #expect(try await api.taskFile(download.taskID).text == Tree.insideText)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func pathsLeadingOutOfTheRootAreRefusedAtCreation() async throws {
        let tree = try Tree()
        defer { tree.directory.remove() }
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/link", withDestinationPath: tree.secret)
        try FileManager.default.createSymbolicLink(
            atPath: tree.root + "/outside-dir", withDestinationPath: tree.directory.appending("outside").path)
        let escapes = [
            "file://\(tree.root)/../outside/secret.txt",  // ../
            "file://\(tree.root)/%2e%2e/outside/secret.txt",  // an encoded ../, which libcurl decodes after normalizing
            "file://\(tree.secret)",  // an absolute path outside
            "file:///etc/hostname",
            "file://\(tree.root)/link",  // a symlink inside pointing outside
            "file://\(tree.root)/outside-dir/secret.txt",  // through a symlinked directory
            "file://\(tree.root)/sub/../../outside/secret.txt",
            "file://\(tree.root)/absent/%2e%2e/%2e%2e/outside/secret.txt",  // `..` after a missing name
            "file://otherhost\(tree.inside)",  // a host other than localhost
        ]
        try await withTaskService(environment: tree.environment) { api, _ in
            let session = try await api.makeSession()
            for url in escapes {
                for kind in ["data", "download"] {
                    let response = try await api.postTask(session: session, ["kind": kind, "request": ["url": url], "resume": true])
                    expectProblem(response, status: 422, slug: "invalid-value", field: "request.url")
                    #expect(!response.text.contains("secret"), "\(url): \(response.text)")
                }
            }
            // file: only reads: a body (which libcurl would write to the file) is refused too.
            let upload = try await api.postTask(
                session: session,
                [
                    "kind": "upload", "request": ["url": "file://\(tree.inside)", "httpMethod": "PUT"],
                    "uploadSource": ["data": ["text": "overwritten"]],
                ])
            expectProblem(upload, status: 422, slug: "invalid-value", field: "request.url")
            let tasks = try await api.get("/v1/sessions/\(session)/tasks")
            #expect((try tasks.json()["items"] as? [Any])?.isEmpty == true, "a refused request created a task")
        }
        #expect(try String(contentsOfFile: tree.inside, encoding: .utf8) == Tree.insideText)
    }

    /// The check runs again when the transfer is prepared: a symlink inside the root at creation that points
    /// outside by the time the task runs fails the task, reading nothing.
    @Test(.timeLimit(.minutes(1)))
    func aSymlinkSwappedAfterCreationFailsTheTask() async throws {
        let tree = try Tree()
        defer { tree.directory.remove() }
        let link = tree.root + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: tree.inside)
        try await withTaskService(environment: tree.environment) { api, _ in
            let session = try await api.makeSession()
            for kind in ["data", "download"] {
                let created = try await api.createTask(session: session, ["kind": kind, "request": ["url": "file://\(link)"]])
                #expect(created.state == "suspended")
                try FileManager.default.removeItem(atPath: link)
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: tree.secret)
                #expect(try await api.taskAction(created.taskID, "resume").status == 200)
                let task = try await api.completedTask(created.taskID)
                #expect(task.errorCode == -1102, "\(task)")
                #expect((task.errorObject?["name"] as? String) == "noPermissionsToReadFile")
                #expect(task.errorReason == "outsideFileRoot", "\(task)")
                #expect(task.count("countOfBytesReceived") == 0)
                try FileManager.default.removeItem(atPath: link)
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: tree.inside)
            }
        }
    }

    /// A file inside the root that is gone by the time the task runs fails it with `fileDoesNotExist`.
    @Test(.timeLimit(.minutes(1)))
    func aMissingFileFailsWithFileDoesNotExist() async throws {
        let tree = try Tree()
        defer { tree.directory.remove() }
        let path = tree.root + "/sub/gone.txt"
        try await withTaskService(environment: tree.environment) { api, _ in
            let session = try await api.makeSession()
            try "soon gone".write(toFile: path, atomically: false, encoding: .utf8)
            let created = try await api.createTask(session: session, ["kind": "data", "request": ["url": "file://\(path)"]])
            try FileManager.default.removeItem(atPath: path)
            #expect(try await api.taskAction(created.taskID, "resume").status == 200)
            let task = try await api.completedTask(created.taskID)
            #expect(task.errorCode == -1100, "\(task)")
        }
    }

    /// A redirect never leads to `file:`: neither a `Location` (URLSession's rules follow http and https
    /// only) nor a delegate's substituted request, even inside the root.
    @Test(.timeLimit(.minutes(1)))
    func aRedirectNeverLeadsToAFile() async throws {
        let tree = try Tree()
        defer { tree.directory.remove() }
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService(environment: tree.environment) { api, _ in
            let plain = try await api.makeSession()
            let location = TasksRedirectTests.redirect(origin, code: 302, to: "file://\(tree.inside)")
            let redirected = try await api.runTask(session: plain, ["kind": "data", "request": ["url": location]])
            #expect(redirected.currentURL?.hasPrefix("file:") != true, "\(redirected)")
            #expect(try await api.taskData(redirected.taskID).text.contains("inside the root") == false)

            let substitute = try jsonText(["disposition": "follow", "request": ["url": "file://\(tree.inside)"]])
            let deciding = try await TaskDecisionsTests.session(api, receiver: receiver, decision: TaskDecisionsTests.redirect) { _ in
                .json(substitute)
            }
            let task = try await api.runTask(session: deciding, ["kind": "data", "request": ["url": origin.url("/redirect/302")]])
            #expect(task.currentURL?.hasPrefix("file:") != true, "\(task)")
            #expect(try await api.taskData(task.taskID).text.contains("inside the root") == false, "\(task)")
        }
    }
}
