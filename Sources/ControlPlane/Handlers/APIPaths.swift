import Foundation
public import TransferModels

/// The paths of the API's resources that other parts name: a task's kept file and body. The routes are
/// registered with the same templates, so an event's `location` is always a route that serves it.
public struct APIPaths: TaskBodyLocations {
    static let taskFile = "/v1/tasks/{id}/file"
    static let taskData = "/v1/tasks/{id}/data"
    static let taskBody = "/v1/tasks/{id}/body"

    public init() {}

    public func fileLocation(ofTask id: String) -> String { Self.path(Self.taskFile, id: id) }

    public func dataLocation(ofTask id: String) -> String { Self.path(Self.taskData, id: id) }

    private static func path(_ template: String, id: String) -> String {
        template.replacingOccurrences(of: "{id}", with: id)
    }
}

extension TaskRecord {
    /// The API's view of the row, with its file's path when it keeps one.
    var wire: TransferTask { wire(locations: APIPaths()) }
}
