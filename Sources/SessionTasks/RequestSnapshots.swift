import Foundation
import TransferEngine
import TransferModels

/// The API's view (`URLRequestSnapshot`) of a request the engine sends after redirects.
enum RequestSnapshots {
    /// `base` with the URL, method, header fields and body of `request`: fields that URLSession's rules
    /// dropped (a body after 303, credentials across origins) are gone; the session's added headers, which
    /// are not part of the request, stay out.
    static func snapshot(of request: OutgoingRequest, basedOn base: URLRequestSnapshot) -> URLRequestSnapshot {
        var snapshot = base
        snapshot.url = request.url
        snapshot.httpMethod = request.method
        let sent = Set(request.headers.map { $0.name.lowercased() })
        snapshot.allHTTPHeaderFields = base.allHTTPHeaderFields.filter { sent.contains($0.key.lowercased()) }
        if case .none = request.body { snapshot.httpBody = nil }
        return snapshot
    }
}
