import Foundation
import TransferModels

/// Seals at rest the credentials a client puts in a request: a URL's password and the values of
/// `Authorization` and `Proxy-Authorization` (the parts `Redaction` masks in answers and events). They are
/// sealed with the store's `SecretBox` in task rows (`originalRequest`, `currentRequest`, `response`'s URL),
/// session rows (`httpAdditionalHeaders`; `connectionProxyDictionary`'s `SOCKSUser` and `SOCKSPassword`,
/// which answers never show) and resume data tokens, so a copy of the database file (or its WAL) does not
/// give them away, while the service still sends them.
///
/// Records are in their stored (sealed) form inside the store's transactions and are opened on their way
/// out, so everything above the store sees the real values. Both directions are idempotent: sealing keeps
/// a sealed value, opening keeps a clear one (rows written before sealing existed read as they were).
struct RequestSecrets: Sendable {
    let box: SecretBox

    /// What starts a sealed value. A URL a client gives may hold no control character and a field value no
    /// CR, LF or NUL, so no clear value (not even one stored before sealing existed) starts with NUL: the
    /// marker cannot be mistaken. The rest is base64url, which has no `/`, `?`, `#` or `@` to end a URL's
    /// authority early.
    static let marker = "\u{0}sealed1:"

    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "a sealed request credential cannot be opened (another URLSESSIOND_SECRET_KEY?)" }
    }

    // MARK: Values

    func seal(_ text: String) throws -> String {
        guard !text.hasPrefix(Self.marker) else { return text }
        return Self.marker + TransferStore.base64URL(try box.seal(Data(text.utf8)))
    }

    func open(_ text: String) throws -> String {
        guard text.hasPrefix(Self.marker) else { return text }
        guard let sealed = TransferStore.data(base64URL: text.dropFirst(Self.marker.count)),
            let clear = try? box.open(sealed)
        else { throw Unreadable() }
        return String(decoding: clear, as: UTF8.self)
    }

    // MARK: Requests and responses

    func sealed(_ request: URLRequestSnapshot) throws -> URLRequestSnapshot { try Self.map(request, seal) }
    func opened(_ request: URLRequestSnapshot) throws -> URLRequestSnapshot { try Self.map(request, open) }
    func sealed(_ response: HTTPResponseSnapshot) throws -> HTTPResponseSnapshot { try Self.map(response, seal) }
    func opened(_ response: HTTPResponseSnapshot) throws -> HTTPResponseSnapshot { try Self.map(response, open) }

    /// The request with `transform` applied to its URLs' passwords and its credential fields.
    private static func map(
        _ request: URLRequestSnapshot, _ transform: (String) throws -> String
    ) throws -> URLRequestSnapshot {
        var request = request
        request.url = try url(request.url, transform)
        request.allHTTPHeaderFields = try fields(request.allHTTPHeaderFields, transform)
        if let main = request.mainDocumentURL { request.mainDocumentURL = try url(main, transform) }
        return request
    }

    /// A response's URL is its request's, password included.
    private static func map(
        _ response: HTTPResponseSnapshot, _ transform: (String) throws -> String
    ) throws -> HTTPResponseSnapshot {
        var response = response
        response.url = try url(response.url, transform)
        return response
    }

    /// `scheme://user:password@host/…` with `transform(password)`; found as `Redaction.url` finds it.
    private static func url(_ text: String, _ transform: (String) throws -> String) throws -> String {
        guard text.utf8.contains(UInt8(ascii: "@")), let schemeEnd = text.range(of: "://") else { return text }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = text[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        guard let at = text[authorityStart..<authorityEnd].lastIndex(of: "@"),
            let colon = text[authorityStart..<at].firstIndex(of: ":")
        else { return text }
        let start = text.index(after: colon)
        guard start < at else { return text }  // `user:@host`: no password
        return String(text[..<start]) + (try transform(String(text[start..<at]))) + String(text[at...])
    }

    /// The fields with `transform` applied to the values of `Authorization` and `Proxy-Authorization`.
    private static func fields(_ fields: [String: String], _ transform: (String) throws -> String) throws -> [String: String] {
        guard fields.keys.contains(where: Redaction.isSecret(field:)) else { return fields }
        var result = fields
        for (name, value) in fields where Redaction.isSecret(field: name) { result[name] = try transform(value) }
        return result
    }

    // MARK: Records

    /// The task as the layers above the store see it. A `currentRequest` copied from `originalRequest`
    /// (every started task's, until a redirect) is opened once.
    func opened(_ task: TaskRecord) throws -> TaskRecord {
        var task = task
        let original = try task.originalRequest.map(opened)
        task.currentRequest = task.currentRequest == task.originalRequest ? original : try task.currentRequest.map(opened)
        task.originalRequest = original
        task.response = try task.response.map(opened)
        return task
    }

    /// The session as stored: its configuration never changes, so it is sealed once, when inserted.
    func sealed(_ session: SessionRecord) throws -> SessionRecord {
        var session = session
        session.configuration.httpAdditionalHeaders = try Self.fields(session.configuration.httpAdditionalHeaders, seal)
        session.configuration.connectionProxyDictionary = try session.configuration.connectionProxyDictionary.map {
            try Self.socksLogin($0, seal)
        }
        return session
    }

    func opened(_ session: SessionRecord) throws -> SessionRecord {
        var session = session
        session.configuration.httpAdditionalHeaders = try Self.fields(session.configuration.httpAdditionalHeaders, open)
        session.configuration.connectionProxyDictionary = try session.configuration.connectionProxyDictionary.map {
            try Self.socksLogin($0, open)
        }
        return session
    }

    /// The proxy dictionary with `transform` applied to its SOCKS login (user and password).
    private static func socksLogin(_ proxy: ProxyDictionary, _ transform: (String) throws -> String) throws -> ProxyDictionary {
        var proxy = proxy
        proxy.SOCKSUser = try proxy.SOCKSUser.map(transform)
        proxy.SOCKSPassword = try proxy.SOCKSPassword.map(transform)
        return proxy
    }

    /// What a completion writes to the task row (`response`, `currentRequest`), sealed.
    func sealed(_ completion: TaskCompletion) throws -> TaskCompletion {
        var completion = completion
        completion.response = try completion.response.map(sealed)
        completion.currentRequest = try completion.currentRequest.map(sealed)
        return completion
    }

    func sealed(_ report: ResponseReport) throws -> ResponseReport {
        ResponseReport(response: try sealed(report.response), currentRequest: try report.currentRequest.map(sealed))
    }
}

extension TransferStore {
    var requestSecrets: RequestSecrets { RequestSecrets(box: secrets) }
}
