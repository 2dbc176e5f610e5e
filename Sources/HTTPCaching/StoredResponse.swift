public import Foundation

/// A stored response as the rules need it: its head and the moments that let its age be computed (RFC 9111 §4.2.3).
///
/// The body is not here: the rules never look at it, and whoever stores responses keeps it where it fits best.
public struct StoredResponse: Sendable {
    public var statusCode: Int
    public var fields: HTTPFields
    /// When the request that got it was sent, and when its head arrived (RFC 9111 §4.2.3's request_time, response_time).
    public var requestTime: Date
    public var responseTime: Date
    /// The values, in the request that got it, of the fields its `Vary` names: lowercased name → value (several
    /// fields of one name joined with ", ", whitespace around values trimmed); a name the request lacked is absent.
    public var varyValues: [String: String]

    public init(statusCode: Int, fields: HTTPFields, requestTime: Date, responseTime: Date, varyValues: [String: String]) {
        self.statusCode = statusCode
        self.fields = fields
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varyValues = varyValues
    }
}
