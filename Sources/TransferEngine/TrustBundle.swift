import Foundation

/// A CA bundle for `CURLOPT_CAINFO` that adds certificates to a base one: libcurl takes one file, and
/// pointing it at the extra certificates alone would drop the system's trust store.
public enum TrustBundle {
    /// Debian's system store (`curl-config --ca`), which libcurl uses when `CURLOPT_CAINFO` is unset.
    public static let systemPath = "/etc/ssl/certs/ca-certificates.crt"

    /// Writes `base` (the system store when nil) followed by `extras` (PEM texts) to `path`, atomically
    /// (a temporary file renamed), mode 0644.
    public static func write(extras: [String], over base: String? = nil, to path: String) throws {
        var text = (try? String(contentsOfFile: base ?? systemPath, encoding: .utf8)) ?? ""
        for extra in extras {
            if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
            text += extra
        }
        let temporary = path + ".\(UInt32.random(in: 0...UInt32.max)).tmp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }
}
