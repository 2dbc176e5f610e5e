public import Foundation

/// A fresh directory under `FileManager.default.temporaryDirectory`, e.g. for a service's data.
///
/// Nothing removes it implicitly (a value type has no deinit): call ``remove()`` when done, typically in a
/// `defer`, so a failed test can still leave it behind on purpose for inspection.
public struct TemporaryDirectory: Sendable {
    /// The directory's location.
    public let url: URL

    /// The directory's file-system path.
    public var path: String { self.url.path }

    /// Creates `<tmp>/<prefix>-<16 random hex digits>` with mode 0700.
    ///
    /// - Throws: The file manager's error when the directory cannot be created (or, against all odds, exists).
    public static func make(prefix: String = "urlsessiond-test") throws -> TemporaryDirectory {
        let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(suffix)", isDirectory: true)
        // No intermediate directories: creating an existing directory must fail, never share it.
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return TemporaryDirectory(url: url)
    }

    /// Removes the directory and everything in it; a directory that is already gone is not an error.
    public func remove() {
        try? FileManager.default.removeItem(at: self.url)
    }

    /// A URL inside the directory.
    public func appending(_ component: String) -> URL {
        self.url.appendingPathComponent(component)
    }
}
