/// Why a task verb of the store refused, in terms the control plane maps to a status:
/// `sessionNotFound`, `taskNotFound`, `blobNotFound` → 404; `sessionNotValid`, `invalidStateTransition` → 409.
///
/// A struct with a private code (STYLE §5), so new reasons are not source-breaking.
public struct TaskStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Hashable, Sendable {
        case sessionNotFound, sessionNotValid, taskNotFound, blobNotFound, invalidStateTransition
    }

    private let code: Code

    /// The session does not exist, or belongs to another tenant.
    public static let sessionNotFound = Self(code: .sessionNotFound)
    /// The session is invalidating or invalidated: it takes no new tasks.
    public static let sessionNotValid = Self(code: .sessionNotValid)
    /// The task does not exist (or belongs to another tenant).
    public static let taskNotFound = Self(code: .taskNotFound)
    /// An upload's `uploadSource.blob` is not a blob of the tenant.
    public static let blobNotFound = Self(code: .blobNotFound)
    /// The task's state does not allow the change (resume a completed task, complete it twice, …).
    public static let invalidStateTransition = Self(code: .invalidStateTransition)

    /// The reason alone, free of request data, so it is safe as a metric label.
    public var shortDescription: String { code.rawValue }

    public var description: String {
        switch code {
        case .sessionNotFound: "no such session"
        case .sessionNotValid: "the session is invalidated or being invalidated and takes no new tasks"
        case .taskNotFound: "no such task"
        case .blobNotFound: "no such blob"
        case .invalidStateTransition: "the task's state does not allow this"
        }
    }
}
