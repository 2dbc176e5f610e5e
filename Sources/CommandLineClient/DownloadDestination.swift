import Foundation

/// Where `urlsessiond get` puts the file: a path, or standard output.
enum DownloadDestination: Equatable {
    case file(String, replacing: Bool)
    case standardOutput

    /// `-o PATH` (replacing what is there, as `curl -o` does), `-o -`, or with no `-o` the URL's last
    /// path segment in the current directory, never over an existing file (as aria2 and wget refuse to).
    init(output: String?, url: URL) {
        switch output {
        case "-": self = .standardOutput
        case let path?: self = .file(path, replacing: true)
        case nil: self = .file(Self.name(for: url), replacing: false)
        }
    }

    /// The URL's last path segment, decoded; `index.html` for a URL that names a directory.
    static func name(for url: URL) -> String {
        let segment = url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent
        // A segment could hold a separator once decoded (`%2F`); the file stays in the current directory.
        let name = segment.replacingOccurrences(of: "/", with: "_")
        return name.isEmpty || name == "/" || name == "." || name == ".." ? "index.html" : name
    }

    /// Moves the downloaded `file` here. Throws `CocoaError` when the place cannot be written.
    func take(_ file: URL) throws {
        switch self {
        case .standardOutput:
            try Self.copy(file, to: FileHandle.standardOutput)
        case .file(let path, let replacing):
            let target = URL(fileURLWithPath: path)
            if replacing, FileManager.default.fileExists(atPath: path) {
                // `-o /dev/null` or a named pipe is written into, as `curl -o` does: only a regular file is
                // replaced (removing a device node would be a disaster when run as root).
                guard Self.isRegularFile(path) else {
                    let handle = try FileHandle(forWritingTo: target)
                    defer { try? handle.close() }
                    return try Self.copy(file, to: handle)
                }
                try FileManager.default.removeItem(at: target)
            }
            try FileManager.default.moveItem(at: file, to: target)
        }
    }

    /// Copies `file` into `handle` in chunks of 1 MiB, then removes `file`.
    private static func copy(_ file: URL, to handle: FileHandle) throws {
        let source = try FileHandle(forReadingFrom: file)
        defer { try? source.close() }
        while let chunk = try source.read(upToCount: 1 << 20), !chunk.isEmpty {
            try handle.write(contentsOf: chunk)
        }
        try? FileManager.default.removeItem(at: file)
    }

    private static func isRegularFile(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }

    /// Why the destination cannot be used, checked before the transfer starts so that nothing is
    /// downloaded for nothing.
    var refusal: String? {
        guard case .file(let path, let replacing) = self else { return nil }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "\(path) is a directory; name a file with -o"
        }
        if FileManager.default.fileExists(atPath: path) {
            guard replacing else { return "\(path) exists; name another file with -o (or -o \(path) to replace it)" }
            return FileManager.default.isWritableFile(atPath: path) ? nil : "cannot write \(path)"
        }
        // (URL, not NSString: `deletingLastPathComponent` of a bare name traps in swift-corelibs-foundation.)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !FileManager.default.isWritableFile(atPath: directory) { return "cannot write in \(directory)" }
        return nil
    }
}
