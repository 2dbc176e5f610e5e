public import Foundation

/// `URLSessionTaskMetrics` as the service collected them. Foundation's class cannot be made outside
/// URLSession, so this value carries the same names.
public struct RemoteURLSessionTaskMetrics: Sendable {
    /// `taskInterval`: from the task's start to its completion, when both are known.
    public var taskInterval: DateInterval?
    public var redirectCount: Int
    /// One per request the service made (`transactionMetrics.count` in URLSession).
    public var transactionCount: Int

    public init(taskInterval: DateInterval?, redirectCount: Int, transactionCount: Int) {
        self.taskInterval = taskInterval
        self.redirectCount = redirectCount
        self.transactionCount = transactionCount
    }

    init(_ value: JSONValue) {
        guard case .object(let object) = value else {
            self.init(taskInterval: nil, redirectCount: 0, transactionCount: 0)
            return
        }
        var interval: DateInterval?
        if case .object(let span) = object["taskInterval"], let start = span["start"]?.stringValue,
            let startDate = RemoteURLSessionTask.date(from: start)
        {
            if case .number(let duration) = span["duration"] {
                interval = DateInterval(start: startDate, duration: duration)
            }
        }
        var redirects = 0
        if case .number(let count) = object["redirectCount"] { redirects = Int(count) }
        var transactions = 0
        if case .array(let items) = object["transactionMetrics"] { transactions = items.count }
        self.init(taskInterval: interval, redirectCount: redirects, transactionCount: transactions)
    }
}
