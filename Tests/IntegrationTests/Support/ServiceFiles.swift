import Foundation
import TestSupport

extension ServiceProcess {
    /// The names in `<data>/<directory>` (`blobs`, `downloads`), none when it is missing.
    func files(in directory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.appendingPathComponent(directory).path)) ?? []
    }
}
