import Curl

/// What `urlsessiond --version` prints: the service's version (the API's, `info.version` of
/// `openapi.yaml`, which a test keeps equal) and the libcurl it transfers with.
public enum ServiceVersion {
    public static let number = "0.1.0"

    public static var description: String { "urlsessiond \(number) (libcurl \(SafetyBaseline.libcurlVersion))" }
}
