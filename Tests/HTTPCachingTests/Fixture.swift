import Foundation
import HTTPCaching

/// A fixed clock and shorthands that keep the tests about the rules rather than about building messages.
enum Fixture {
    /// When the request was sent: Sun, 09 Sep 2001 01:46:40 GMT.
    static let sent = Date(timeIntervalSince1970: 1_000_000_000)

    /// `sent` moved by `seconds`, as an HTTP date (IMF-fixdate).
    static func date(_ seconds: TimeInterval) -> String {
        formatter.string(from: sent.addingTimeInterval(seconds))
    }

    private static let formatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    /// `sent` moved by `seconds`.
    static func at(_ seconds: TimeInterval) -> Date {
        sent.addingTimeInterval(seconds)
    }

    static func response(
        _ fields: HTTPFields, status: Int = 200, requestTime: TimeInterval = 0, responseTime: TimeInterval = 0,
        varyValues: [String: String] = [:]
    ) -> StoredResponse {
        StoredResponse(
            statusCode: status, fields: fields, requestTime: at(requestTime), responseTime: at(responseTime), varyValues: varyValues)
    }

    /// Field lists compared by name and value in order, since tuples are not `Equatable`.
    static func same(_ left: HTTPFields, _ right: HTTPFields) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
