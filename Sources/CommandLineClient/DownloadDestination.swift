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
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try FileHandle.standardOutput.write(contentsOf: chunk)
            }
            try? FileManager.default.removeItem(at: file)
        case .file(let path, let replacing):
            let target = URL(fileURLWithPath: path)
            if replacing, FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(at: target) }
            try FileManager.default.moveItem(at: file, to: target)
        }
    }

    /// Why the destination cannot be used, checked before the transfer starts so that nothing is
    /// downloaded for nothing.
    var refusal: String? {
        guard case .file(let path, let replacing) = self else { return nil }
        if !replacing, FileManager.default.fileExists(atPath: path) {
            return "\(path) exists; name another file with -o (or -o \(path) to replace it)"
        }
        // (URL, not NSString: `deletingLastPathComponent` of a bare name traps in swift-corelibs-foundation.)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !FileManager.default.isWritableFile(atPath: directory) { return "cannot write in \(directory)" }
        return nil
    }
}
