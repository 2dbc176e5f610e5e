import Foundation
import Testing

@testable import EventDelivery

/// The reasons a delegate's health shows for failed POSTs: the status when an answer came, otherwise a
/// fixed phrase, never libcurl's text (which names the host and port).
@Suite("Delivery failure reasons")
struct DeliveryFailureReasonTests {
    static func response(
        status: Int = 0, curlCode: Int = 0, failure: String? = nil, osErrno: Int = 0, egress: Bool = false
    ) -> WebhookResponse {
        WebhookResponse(
            token: 1, status: status, retryAfter: nil, body: [], curlCode: curlCode, failure: failure, osErrno: osErrno,
            deniedByEgressPolicy: egress)
    }

    @Test(arguments: [
        (response(status: 500), "HTTP 500"),
        (response(status: 410), "HTTP 410"),
        (response(status: 302), "HTTP 302"),
        (response(curlCode: 28, failure: "Operation timed out after 15000 milliseconds with 0 bytes received"), "timed out"),
        (response(curlCode: 7, failure: "Failed to connect to 10.0.0.7 port 8443", osErrno: Int(ECONNREFUSED)), "connection refused"),
        (response(curlCode: 7, failure: "Failed to connect to 10.0.0.7 port 8443", osErrno: Int(EHOSTUNREACH)), "host unreachable"),
        (response(curlCode: 7, failure: "Failed to connect to 10.0.0.7 port 8443"), "could not connect"),
        (response(curlCode: 6, failure: "Could not resolve host: hooks.example"), "could not resolve host"),
        (response(curlCode: 60, failure: "SSL certificate problem: self-signed certificate"), "TLS failure"),
        (response(curlCode: 52), "empty reply"),
        (response(curlCode: 56), "connection lost"),
        (response(curlCode: 7, failure: "egress policy: 10.0.0.7 is not allowed", egress: true), "egress policy"),
        (response(curlCode: 99, failure: "something at https://hooks.example/?token=x"), "transport error (curl 99)"),
    ])
    func eachFailureHasAShortReason(response: WebhookResponse, reason: String) {
        #expect(DeliveryFailureReason.of(response) == reason)
    }
}
