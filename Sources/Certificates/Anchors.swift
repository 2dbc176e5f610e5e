internal import COpenSSL
import Foundation
import Synchronization

/// Verification of a peer chain against a CA file of the caller's choosing, independent of what libcurl's
/// own verification used: the service turns libcurl's verification off to evaluate trust itself (as
/// URLSession's delegate sees it), and then OpenSSL's stored result does not reflect the session's anchors.
enum Anchors {
    /// Verifies `leaf` (with `untrusted`, the rest of what the server sent) for a TLS server, now.
    /// X509_V_FLAG_PARTIAL_CHAIN lets any certificate of the file be an anchor, as libcurl sets it
    /// (and as URLSession's anchor certificates behave). A file that cannot be read trusts nothing.
    static func verify(_ leaf: OpaquePointer, untrusted: OpaquePointer?, anchorsFile: String) -> Int32 {
        guard let store = store(for: anchorsFile), let context = X509_STORE_CTX_new() else {
            return X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store.raw, leaf, untrusted) == 1,
            X509_STORE_CTX_set_default(context, "ssl_server") == 1
        else { return X509_V_ERR_UNSPECIFIED }
        let verified = X509_verify_cert(context)
        let error = X509_STORE_CTX_get_error(context)
        ERR_clear_error()
        return verified == 1 ? X509_V_OK : (error == X509_V_OK ? X509_V_ERR_UNSPECIFIED : error)
    }

    /// An `X509_STORE` is read-only once loaded and safe to verify with from several threads, so one per file
    /// is kept (the system bundle is ~150 certificates, parsed once rather than per connection). A changed
    /// file (inode, size or modification time) is read again.
    private final class Store: @unchecked Sendable {
        let raw: OpaquePointer
        let version: [Int]
        init(raw: OpaquePointer, version: [Int]) {
            self.raw = raw
            self.version = version
        }
        deinit { X509_STORE_free(raw) }
    }

    private static let stores = Mutex<[String: Store]>([:])
    /// Per-session bundles come and go; past this many the cache starts over rather than grow.
    private static let maximumStores = 64

    private static func store(for path: String) -> Store? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let version = [(attributes[.systemFileNumber] as? Int) ?? -1, (attributes[.size] as? Int) ?? -1, Int(modified * 1_000_000)]
        if let cached = stores.withLock({ $0[path] }), cached.version == version { return cached }
        guard let raw = X509_STORE_new() else { return nil }
        let store = Store(raw: raw, version: version)
        guard X509_STORE_load_file(raw, path) == 1 else {
            ERR_clear_error()
            return nil
        }
        X509_STORE_set_flags(raw, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        stores.withLock { stores in
            if stores.count >= maximumStores { stores.removeAll() }
            stores[path] = store
        }
        return store
    }
}
