/// A `--network` value that cannot be used; the description names the path and the key at fault.
public struct NetworkPathError: Error, CustomStringConvertible {
    public var description: String

    /// A fault in one key of a named path.
    init(path: String, key: String, _ problem: String) {
        self.description = "network path \"\(path)\": \(key): \(problem)"
    }

    /// A fault in a path as a whole (its name, its shape, or its place in the list).
    init(path: String, _ problem: String) {
        self.description = "network path \"\(path)\": \(problem)"
    }
}
