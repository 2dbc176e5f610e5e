import Foundation
import TransferEngine
public import TransferModels

/// `URLSESSIOND_FILE_ROOT`: the one directory `file:` URLs may read from when `URLSESSIOND_EXTRA_PROTOCOLS`
/// enables `file`. Without it a tenant could read whatever the service can (keys, the database, `/etc`).
///
/// A URL's path is taken as libcurl takes it — `file:/p`, `file:///p`, `file://localhost/p`, dot segments
/// removed (RFC 3986 §5.2.4, libcurl's `dedotdotify`), query and fragment cut, then percent-decoded — and
/// resolved as the kernel would open it (`realpath(3)`: symlinks and a decoded `..` followed). It must end
/// inside the root. The check runs when a task is created (422) and again when each attempt is prepared
/// (-1102 `noPermissionsToReadFile`, `userInfo.reason` `outsideFileRoot`): a symlink may change in between.
/// A window remains between that second check and libcurl's `open(2)`, which libcurl offers no way to close.
///
/// `file:` URLs only read: a request with a body (which libcurl would write to the file) is refused too.
public struct FileRoot: Sendable, Hashable {
    /// The directory, resolved (`realpath(3)`) once at start-up.
    public let path: String
    private let bytes: [UInt8]

    /// - Throws: ``FileRootError`` when `directory` does not exist, cannot be resolved, or is not a directory.
    public init(directory: String) throws(FileRootError) {
        guard !directory.isEmpty, !directory.utf8.contains(0) else { throw FileRootError("must be the path of a directory") }
        guard let resolved = Self.realPath(Array(directory.utf8)) else {
            throw FileRootError("\(directory) does not exist or cannot be resolved (\(String(cString: strerror(errno))))")
        }
        var info = stat()
        guard stat(resolved.map { CChar(bitPattern: $0) } + [0], &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw FileRootError("\(directory) is not a directory")
        }
        self.bytes = resolved
        self.path = String(decoding: resolved, as: UTF8.self)
    }

    /// Whether `url` has the `file` scheme (any case).
    public static func isFileURL(_ url: String) -> Bool {
        url.utf8.count > 5 && url.prefix(5).lowercased() == "file:"
    }

    /// Why the root refuses the `file:` URL `url`, or nil when the file it names resolves inside the root.
    public func refusal(of url: String) -> String? {
        guard let path = Self.localPath(of: url) else {
            return "must be file:///path (an empty host or localhost) with an absolute path and no NUL"
        }
        guard let resolved = Self.resolve(path), contains(resolved) else {
            return "names a file outside the file root (URLSESSIOND_FILE_ROOT), symlinks and .. followed"
        }
        return nil
    }

    private func contains(_ resolved: [UInt8]) -> Bool {
        if bytes == [UInt8(ascii: "/")] { return resolved.first == UInt8(ascii: "/") }
        return resolved == bytes || (resolved.count > bytes.count && resolved.starts(with: bytes + [UInt8(ascii: "/")]))
    }

    // MARK: The path libcurl opens

    /// The file system path libcurl 7.88 (`urlapi.c`, `file.c`) opens for a `file:` URL, as bytes; nil for a
    /// URL it would refuse, a path that is not absolute, or one with a NUL.
    static func localPath(of url: String) -> [UInt8]? {
        guard isFileURL(url) else { return nil }
        var rest = Substring(url.dropFirst(5))
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            if !rest.hasPrefix("/") {
                let host = rest.prefix(10).lowercased()
                guard host == "localhost/" || host == "127.0.0.1/" else { return nil }
                rest = rest.dropFirst(9)
            }
        }
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        if let query = rest.firstIndex(of: "?") { rest = rest[..<query] }
        guard rest.hasPrefix("/") else { return nil }
        let decoded = percentDecoded(removingDotSegments(Array(rest.utf8)))
        guard decoded.first == UInt8(ascii: "/"), !decoded.contains(0) else { return nil }
        return decoded
    }

    /// RFC 3986 §5.2.4 on an absolute path, as libcurl applies it before anything is decoded.
    static func removingDotSegments(_ path: [UInt8]) -> [UInt8] {
        var output: [[UInt8]] = []
        let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch Array(segment) {
            case Array(".".utf8):
                if isLast { output.append([]) }
            case Array("..".utf8):
                _ = output.popLast()
                if isLast { output.append([]) }
            default:
                output.append(Array(segment))
            }
        }
        return output.isEmpty ? [UInt8(ascii: "/")] : output.flatMap { [UInt8(ascii: "/")] + $0 }
    }

    /// `%XX` → byte; a `%` not followed by two hex digits stays as it is (libcurl's `Curl_urldecode`).
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hex(bytes[index + 1]),
                let low = hex(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    // MARK: Resolving as the kernel does

    /// The path with every symlink and `..` followed. A file that does not exist yet resolves through its
    /// deepest existing ancestor (the missing names cannot be symlinks); a `..` after a missing name, which
    /// `open(2)` would refuse, and a dangling symlink resolve to nothing.
    static func resolve(_ path: [UInt8]) -> [UInt8]? {
        let slash = UInt8(ascii: "/")
        var missing: [[UInt8]] = []
        var existing = path
        for _ in 0...path.count {  // each turn drops one name: bounded by the path's length
            if var resolved = realPath(existing) {
                for name in missing.reversed() {
                    if resolved.last != slash { resolved.append(slash) }
                    resolved += name
                }
                return resolved
            }
            // ENOENT from a name that exists is a dangling symlink: its target may appear outside the root.
            guard errno == ENOENT, !exists(existing), let last = existing.lastIndex(of: slash) else { return nil }
            let name = Array(existing[(last + 1)...])
            guard name != Array("..".utf8) else { return nil }
            if !name.isEmpty && name != Array(".".utf8) { missing.append(name) }
            existing = last == 0 ? [slash] : Array(existing[..<last])
        }
        return nil
    }

    /// Whether `lstat(2)` finds the name itself (a symlink is not followed).
    private static func exists(_ path: [UInt8]) -> Bool {
        var info = stat()
        return lstat(path.map { CChar(bitPattern: $0) } + [0], &info) == 0
    }

    /// `realpath(3)` on raw bytes (a name need not be UTF-8); nil with `errno` set when it fails.
    static func realPath(_ path: [UInt8]) -> [UInt8]? {
        let cPath = path.map { CChar(bitPattern: $0) } + [0]
        guard let resolved = realpath(cPath, nil) else { return nil }
        defer { free(resolved) }
        return Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map { UInt8(bitPattern: $0) }
    }
}

/// `URLSESSIOND_FILE_ROOT` cannot be used; the message says why.
public struct FileRootError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - The service's root

extension TaskService {
    /// Why a task request is refused under the file root — a `file:` URL outside it, or one with a body
    /// (`file:` only reads) — or nil. For the 422 at creation, on `request.url`.
    public func fileRootRefusal(of request: ValidatedTaskRequest) -> String? {
        guard let snapshot = request.request, FileRoot.isFileURL(snapshot.url) else { return nil }
        guard request.kind != .upload, request.uploadBody == nil, snapshot.httpBody == nil else {
            return "is a file: URL, which only reads: no body or upload"
        }
        guard let root = configuration.fileRoot else { return "is a file: URL, but no file root (URLSESSIOND_FILE_ROOT) is configured" }
        return root.refusal(of: snapshot.url)
    }
}

extension JobFactory {
    /// Checks an attempt's request again as its job is made: a `file:` URL must still resolve inside the
    /// root (a symlink may have changed since the task was created), and carry no body.
    /// - Throws: `TransferError` -1102 `noPermissionsToReadFile`, `userInfo.reason` `outsideFileRoot` (or
    ///   `fileWriteRefused` for a body).
    func checkFileRoot(_ request: OutgoingRequest) throws(TransferError) {
        guard FileRoot.isFileURL(request.url) else { return }
        guard case .none = request.body else {
            throw TransferError(.noPermissionsToReadFile, failingURL: request.url, userInfo: ["reason": "fileWriteRefused"])
        }
        guard let root = configuration.fileRoot, root.refusal(of: request.url) == nil else {
            throw TransferError(.noPermissionsToReadFile, failingURL: request.url, userInfo: ["reason": "outsideFileRoot"])
        }
    }
}
