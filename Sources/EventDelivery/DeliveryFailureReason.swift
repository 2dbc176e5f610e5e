import Foundation

/// The short reason a delegate's health shows for a failed POST (`delivery.lastFailure.reason`):
/// `HTTP <status>` when an answer came, otherwise one of a fixed list of transport reasons.
///
/// Never libcurl's text nor the egress policy's: they name the host, port or address, and the reason is
/// shown to anyone who may read the session, next to a URL whose query may be a credential.
enum DeliveryFailureReason {
    static func of(_ response: WebhookResponse) -> String {
        if response.status > 0 { return "HTTP \(response.status)" }
        if response.deniedByEgressPolicy { return "egress policy" }
        return transport(curlCode: response.curlCode, osErrno: response.osErrno)
    }

    /// A failure without an answer, by its `CURLcode` and the connect `errno`.
    static func transport(curlCode: Int, osErrno: Int) -> String {
        switch curlCode {
        case 28: "timed out"
        case 6: "could not resolve host"
        case 7:
            switch Int32(truncatingIfNeeded: osErrno) {
            case ECONNREFUSED: "connection refused"
            case ENETUNREACH, EHOSTUNREACH: "host unreachable"
            default: "could not connect"
            }
        case 35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98: "TLS failure"
        case 52: "empty reply"
        case 55, 56: "connection lost"
        case 8, 16, 92: "invalid response"
        default: "transport error (curl \(curlCode))"
        }
    }
}
