// A client process for URLSessionRemoteTests' background re-attach test: the test runs it, kills it with
// SIGKILL mid-download, and runs it again, as an app is killed and relaunched.
//
//     urlsessionremote-probe SERVICE_URL TOKEN IDENTIFIER STATE_DIR SECONDS (DOWNLOAD_URL | until-complete | until-finish-events)
//
// Makes the background session IDENTIFIER (its last handled event remembered in STATE_DIR), starts a
// download of DOWNLOAD_URL when given, and prints one line per delegate call (written at once) until
// SECONDS have passed, or `didCompleteWithError` / `urlSessionDidFinishEvents` was heard.
import Foundation
import URLSessionRemote

#if canImport(Glibc)
    import Glibc
#endif

/// Prints each delegate call as a line; the file it is handed, as its byte count.
final class PrintingDelegate: RemoteURLSessionDelegate {
    let finished: AsyncStream<Void>.Continuation
    let endsAtCompletion: Bool

    init(finished: AsyncStream<Void>.Continuation, endsAtCompletion: Bool) {
        self.finished = finished
        self.endsAtCompletion = endsAtCompletion
    }

    func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) async {
        say("didWriteData \(totalBytesWritten)")
    }

    func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) async {
        let size = (try? Data(contentsOf: location))?.count ?? -1
        say("didFinishDownloadingTo \(downloadTask.identifier) \(size)")
    }

    func urlSession(_ session: RemoteURLSession, task: RemoteURLSessionTask, didCompleteWithError error: (any Error)?) async {
        say("didCompleteWithError \(task.identifier) \(error.map { "\($0)" } ?? "nil")")
        if self.endsAtCompletion { self.finished.yield() }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: RemoteURLSession) async {
        say("urlSessionDidFinishEvents")
        if !self.endsAtCompletion { self.finished.yield() }
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 7, let serviceURL = URL(string: arguments[1]), let seconds = Double(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: urlsessionremote-probe URL TOKEN IDENTIFIER STATE_DIR SECONDS MODE\n".utf8))
    exit(2)
}
let mode = arguments[6]
var configuration = RemoteURLSessionConfiguration.background(
    withIdentifier: arguments[3], connection: RemoteConnection(url: serviceURL, token: arguments[2]))
configuration.stateDirectory = URL(fileURLWithPath: arguments[4])
let (finished, finishedContinuation) = AsyncStream<Void>.makeStream()
let delegate = PrintingDelegate(finished: finishedContinuation, endsAtCompletion: mode != "until-finish-events")
let session = RemoteURLSession(configuration: configuration, delegate: delegate)
do {
    if mode.hasPrefix("http"), let url = URL(string: mode) {
        let task = try await session.downloadTask(with: url)
        try await task.resume()
        say("started \(task.identifier)")
    } else {
        say("attached \(try await session.sessionIdentifier())")
    }
} catch {
    FileHandle.standardError.write(Data("probe: \(error)\n".utf8))
    exit(1)
}
await withTaskGroup(of: Void.self) { group in
    group.addTask { try? await Task.sleep(for: .milliseconds(Int(seconds * 1000))) }
    group.addTask {
        var iterator = finished.makeAsyncIterator()
        _ = await iterator.next()
    }
    await group.next()
    group.cancelAll()
}
say("exiting")
exit(0)
