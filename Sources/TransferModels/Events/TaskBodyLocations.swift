/// Where the API serves a task's kept body and downloaded file. The control plane owns the routes and
/// says; the task layer needs it for the delegate events that name them (`didFinishDownloadingTo`'s
/// location, `task.completion`'s `dataLocation`).
public protocol TaskBodyLocations: Sendable {
    /// A download's file (`downloadTask.didFinishDownloadingTo`'s location).
    func fileLocation(ofTask id: String) -> String
    /// A data or upload task's body too large to travel inside `task.completion`.
    func dataLocation(ofTask id: String) -> String
}
