/// `serverTrust`, declarative server trust for a session's connections (no challenge round trip):
/// - `pinnedPublicKeys`: SPKI pins in libcurl's `CURLOPT_PINNEDPUBLICKEY` form, `sha256//<base64 of the
///   SHA-256 of the DER SubjectPublicKeyInfo>`; a connection whose certificate's key matches none fails
///   with -1202 (`serverCertificateUntrusted`), after the chain was evaluated;
/// - `anchors`: PEM certificates the session trusts besides the system store (and `URLSESSIOND_CA_FILE`).
public struct ServerTrustConfiguration: Codable, Sendable, Hashable {
    public var pinnedPublicKeys: [String]?
    public var anchors: [String]?

    public init(pinnedPublicKeys: [String]? = nil, anchors: [String]? = nil) {
        self.pinnedPublicKeys = pinnedPublicKeys
        self.anchors = anchors
    }
}
