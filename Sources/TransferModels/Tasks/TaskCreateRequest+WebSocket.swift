import JSONCodec

/// The rules of `"kind": "webSocket"` (`webSocketTask(with:protocols:)`), beside the general ones.
extension TaskCreateRequest {
    /// The schemes of a webSocket task's URL; every other kind refuses them.
    public static let webSocketSchemes: Set<String> = ["ws", "wss"]

    /// Refuses what a webSocket task cannot have, or a ws/wss URL on another kind; returns the options of
    /// a webSocket task (nil for the others).
    func validatedWebSocket(session: SessionConfiguration) throws(RequestDecodingError) -> WebSocketTaskOptions? {
        guard kind == .webSocket else {
            if protocols != nil { throw .invalidValue("protocols", "only webSocket tasks offer subprotocols") }
            if maximumMessageSize != nil { throw .invalidValue("maximumMessageSize", "only webSocket tasks have a maximumMessageSize") }
            if let url = request?.url, Self.webSocketSchemes.contains(url.prefix { $0 != ":" }.lowercased()) {
                throw .invalidValue("request.url", "ws and wss URLs are for tasks of kind webSocket")
            }
            return nil
        }
        // As URLSession: `webSocketTask` is not supported in background sessions.
        if session.kind == .background {
            throw .invalidValue("kind", "webSocket tasks are not supported in background sessions, as in URLSession")
        }
        if completion != nil { throw .invalidValue("completion", "a webSocket task has no completion handler form") }
        if expectedDigest != nil { throw .invalidValue("expectedDigest", "a webSocket task has no body to check") }
        if request?.httpBody != nil { throw .invalidValue("request.httpBody", "the opening handshake of a webSocket task has no body") }
        if let method = request?.httpMethod, method != "GET" {
            throw .invalidValue("request.httpMethod", "the opening handshake of a webSocket task is a GET")
        }
        let offered = protocols ?? []
        guard offered.count <= WebSocketTaskOptions.maximumProtocols else {
            throw .invalidValue("protocols", "must be at most \(WebSocketTaskOptions.maximumProtocols) subprotocols")
        }
        var seen: Set<String> = []
        for (index, name) in offered.enumerated() {
            // RFC 6455 §4.1: each subprotocol is an RFC 2616 token, unique in the list.
            guard Validate.isToken(name), name.utf8.count <= 256 else {
                throw .invalidValue("protocols[\(index)]", "must be a token (RFC 6455 §4.1) of at most 256 characters")
            }
            guard seen.insert(name).inserted else { throw .invalidValue("protocols[\(index)]", "repeats a subprotocol") }
        }
        let maximum = maximumMessageSize ?? WebSocketTaskOptions.defaultMaximumMessageSize
        try Validate.range(maximum, 1...WebSocketTaskOptions.maximumMessageSizeLimit, field: "maximumMessageSize")
        return WebSocketTaskOptions(protocols: offered, maximumMessageSize: maximum)
    }
}
