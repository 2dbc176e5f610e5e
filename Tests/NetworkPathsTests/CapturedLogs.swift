import Logging

/// A logger whose records the test reads back (STYLE.md §8: never bootstrap the global logging system).
final class CapturedLogs: Sendable {
    private let events = TestBox<[LogEvent]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(events: self.events) }
    }

    /// The info records, as (message, metadata as strings).
    var infos: [(message: String, metadata: [String: String])] {
        events.value.filter { $0.level == .info }.map { event in
            (event.message.description, (event.metadata ?? [:]).mapValues { "\($0)" })
        }
    }

    private struct Handler: LogHandler {
        let events: TestBox<[LogEvent]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            events.mutate { $0.append(event) }
        }
    }
}
