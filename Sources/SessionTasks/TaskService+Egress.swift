import Curl
import Foundation
import TransferEngine

extension TaskService {
    /// Why the egress policy refuses `url`, when its host is an address the policy denies (an IP literal,
    /// or `localhost`); nil otherwise. A delegate URL is judged when it is given, so a session is not
    /// created with webhooks that could never be sent. A host name is resolved only when a POST is made
    /// (its addresses may change), and judged then.
    public func egressRefusal(of url: String) -> String? {
        guard var host = URLComponents(string: url)?.host else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let address = host.lowercased() == "localhost" ? IPAddress("127.0.0.1") : IPAddress(host),
            case .denied(let reason) = configuration.engine.egress.check(address)
        else { return nil }
        return reason
    }
}
