import Foundation
import JSONCodec
public import Logging

/// `URLSESSIOND_LOG_FORMAT=json`: one JSON object per line on stderr, for log collectors that read
/// fields rather than text — `time` (RFC 3339, milliseconds, UTC), `level`, `logger`, `message`, then the
/// metadata's keys as they are (`tenant`, `session.id`, `task.id`, `request.id`, …), nested metadata as
/// objects and arrays. A line is written with one `write(2)`, so lines of concurrent loggers never mix.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let own = event.metadata { fields.merge(own) { $1 } }
        let line = Self.line(
            time: Date(), level: event.level, logger: label, message: "\(event.message)", metadata: fields)
        line.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// The JSON line of one event (the metadata's keys in order, after the four fixed fields).
    static func line(time: Date, level: Logger.Level, logger: String, message: String, metadata: Logger.Metadata) -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [
            ("time", .string(time.rfc3339Text)), ("level", .string(level.rawValue)), ("logger", .string(logger)),
            ("message", .string(message)),
        ]
        for key in metadata.keys.sorted() where !["time", "level", "logger", "message"].contains(key) {
            members.append((key, Self.value(metadata[key]!)))
        }
        return JSONValue.object(JSONObject(members)).serialized() + [UInt8(ascii: "\n")]
    }

    private static func value(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let items): .array(items.map(Self.value))
        case .dictionary(let dictionary):
            .object(JSONObject(dictionary.keys.sorted().map { ($0, Self.value(dictionary[$0]!)) }))
        }
    }
}
