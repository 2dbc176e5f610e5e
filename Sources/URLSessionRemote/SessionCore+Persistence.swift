internal import Foundation

extension SessionCore {
    /// The file remembering the last event a background session's delegate handled, per service and
    /// identifier, so that a restarted client hears each event once.
    nonisolated var sequenceFile: URL {
        let directory =
            self.configuration.stateDirectory
            ?? (FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("URLSessionRemote", isDirectory: true)
        let url = self.configuration.connection.url
        let key = "\(url.host ?? "service")-\(url.port ?? 0)-\(self.configuration.identifier ?? "default")"
        let name = String(key.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
        return directory.appendingPathComponent("\(name).sequence")
    }

    func storedSequence() -> Int {
        guard let data = try? Data(contentsOf: self.sequenceFile) else { return 0 }
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    func storeSequence(_ sequence: Int) {
        let file = self.sequenceFile
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written whole and renamed over, so a client killed mid-write leaves the previous value.
        try? Data(String(sequence).utf8).write(to: file, options: .atomic)
    }
}
