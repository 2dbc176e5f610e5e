/// What a stream task (`URLSessionStreamTask`, `streamTask(withHostName:port:)`) connects to. Kept with the
/// task (the store's `stream` column) and shown on the task object as `hostName` and `port`.
public struct StreamTaskOptions: Codable, Sendable, Hashable {
    /// A DNS name or an IP literal (IPv6 without brackets), as `streamTask(withHostName:port:)` takes it.
    public var hostName: String
    public var port: Int

    public init(hostName: String, port: Int) {
        self.hostName = hostName
        self.port = port
    }

    /// The URL libcurl connects to (connect-only: no byte of HTTP is sent, and a proxy is asked to CONNECT).
    public var connectURL: String {
        let host = hostName.contains(":") ? "[\(hostName)]" : hostName
        return "http://\(host):\(port)"
    }
}
