import JSONCodec

/// The rules of `"kind": "stream"` (`streamTask(withHostName:port:)`), beside the general ones.
extension TaskCreateRequest {
    /// Refuses what a stream task cannot have, or `hostName`/`port` on another kind; returns the host and
    /// port of a stream task (nil for the others).
    func validatedStream(session: SessionConfiguration) throws(RequestDecodingError) -> StreamTaskOptions? {
        guard kind == .stream else {
            if hostName != nil { throw .invalidValue("hostName", "only stream tasks connect to a hostName") }
            if port != nil { throw .invalidValue("port", "only stream tasks connect to a port") }
            return nil
        }
        // As URLSession: stream tasks are not supported in background sessions.
        if session.kind == .background {
            throw .invalidValue("kind", "stream tasks are not supported in background sessions, as in URLSession")
        }
        if request != nil { throw .invalidValue("request", "a stream task connects to hostName and port; it has no request") }
        if completion != nil { throw .invalidValue("completion", "a stream task has no completion handler form") }
        if expectedDigest != nil { throw .invalidValue("expectedDigest", "a stream task has no body to check") }
        guard let hostName else { throw .missingField("hostName", "is required for stream tasks") }
        guard let port else { throw .missingField("port", "is required for stream tasks") }
        try Validate.range(port, 1...65535, field: "port")
        guard let host = Self.streamHost(hostName) else {
            throw .invalidValue("hostName", "must be a DNS name (ASCII, punycode for others) or an IP address")
        }
        return StreamTaskOptions(hostName: host, port: port)
    }

    /// `hostName` as connected to: a DNS name (LDH labels of 1–63 characters, at most 253 in all, one final
    /// dot allowed), an IPv4 address, or an IPv6 address (brackets taken off); nil for anything else.
    static func streamHost(_ text: String) -> String? {
        var host = text
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let bytes = Array(host.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return nil }
        if bytes.contains(UInt8(ascii: ":")) {
            let allowed = Set("0123456789abcdefABCDEF:.".utf8)
            return bytes.allSatisfy(allowed.contains) && bytes.filter({ $0 == UInt8(ascii: ":") }).count >= 2 ? host : nil
        }
        let name = bytes.last == UInt8(ascii: ".") ? bytes.dropLast() : bytes[...]
        let labels = name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let isLabel = { (label: ArraySlice<UInt8>) -> Bool in
            (1...63).contains(label.count) && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                && label.allSatisfy { ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }
        }
        return labels.allSatisfy(isLabel) ? host : nil
    }
}
