import Foundation

/// Where an S3-compatible object store is and how to sign for it: one bucket, addressed path-style
/// (`endpoint/bucket/key`, which every S3-compatible server accepts, unlike virtual-hosted names), and an
/// optional key prefix under which everything of this service goes.
///
/// The secret never leaves this value: `description` leaves it out, and errors never carry it.
public struct ObjectStoreConfiguration: Sendable, CustomStringConvertible {
    /// `http(s)://host[:port]`, with no path and no trailing slash.
    public var endpoint: String
    public var bucket: String
    /// Segments put before every key (`a/b`, no slashes at either end); empty: none.
    public var prefix: String
    /// The region in the signature's scope (`us-east-1` for most S3-compatible servers).
    public var region = "us-east-1"
    public var accessKeyId: String
    public var secretAccessKey: String
    /// Seconds a connection may take to open.
    public var connectTimeout: Double = 10
    /// Seconds a request may move no byte before it fails (a stalled server, a lost connection).
    public var stallTimeout: Int = 60
    /// Uploads (puts) running at once; more wait their turn, so a burst of completions does not open a
    /// connection (and a thread) each.
    public var maximumConcurrentUploads = 8

    public init(endpoint: String, bucket: String, prefix: String = "", accessKeyId: String, secretAccessKey: String) {
        self.endpoint = endpoint
        self.bucket = bucket
        self.prefix = prefix
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
    }

    public var description: String {
        "s3://\(bucket)\(prefix.isEmpty ? "" : "/" + prefix) at \(endpoint) (\(region), key \(accessKeyId))"
    }

    /// The full key of `name` under the prefix.
    public func key(_ name: String) -> String {
        prefix.isEmpty ? name : prefix + "/" + name
    }
}

extension ObjectStoreConfiguration {
    /// Reads `s3://bucket[/prefix]?endpoint=http://127.0.0.1:9000&region=us-east-1`
    /// (`URLSESSIOND_OBJECT_STORE_URL`) with the key and secret given apart (`AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`: the environment only, never the URL, so they cannot end up in a log line
    /// that quotes the setting).
    /// - Throws: ``ObjectStoreError`` (`invalidConfiguration`) naming what is wrong, without the secret.
    public init(url text: String, accessKeyId: String?, secretAccessKey: String?) throws(ObjectStoreError) {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "s3",
            let bucket = components.host, !bucket.isEmpty
        else { throw .invalidConfiguration("expected s3://bucket[/prefix]?endpoint=http://host:port[&region=…]") }
        guard components.user == nil, components.password == nil else {
            throw .invalidConfiguration("the URL must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        let query = components.queryItems ?? []
        func item(_ name: String) -> String? { query.first { $0.name == name }?.value.flatMap { $0.isEmpty ? nil : $0 } }
        guard let endpointText = item("endpoint"), let endpoint = URLComponents(string: endpointText),
            let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = endpoint.host, !host.isEmpty,
            endpoint.path.isEmpty || endpoint.path == "/", endpoint.query == nil, endpoint.user == nil
        else { throw .invalidConfiguration("endpoint= must be http(s)://host[:port] with no path, query or credentials") }
        guard let accessKeyId, !accessKeyId.isEmpty, let secretAccessKey, !secretAccessKey.isEmpty else {
            throw .invalidConfiguration("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must both be set")
        }
        let prefix = components.path.split(separator: "/").joined(separator: "/")
        self.init(
            endpoint: endpointText.hasSuffix("/") ? String(endpointText.dropLast()) : endpointText, bucket: bucket, prefix: prefix,
            accessKeyId: accessKeyId, secretAccessKey: secretAccessKey)
        if let region = item("region") {
            guard region.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw .invalidConfiguration("region= must be letters, digits and dashes")
            }
            self.region = region
        }
    }
}
