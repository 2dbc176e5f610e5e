/// What a stream task's connection has to send, in the order the API asked: writes, the start of TLS, the
/// end of the write side. A write may go out in pieces: `written` says how far into the first one the
/// socket took, and `bytesSent` counts every byte that went, for the task's outcome.
struct StreamOutput {
    enum Item {
        case write([UInt8], token: UInt64, deadline: ContinuousClock.Instant)
        case startSecureConnection
        case closeWrite
    }

    private(set) var items: [Item] = []
    /// Bytes of the first item (a write) already sent.
    private(set) var written = 0
    private(set) var bytesSent: Int64 = 0

    var isEmpty: Bool { items.isEmpty }
    var first: Item? { items.first }

    mutating func append(_ item: Item) {
        items.append(item)
    }

    /// `count` more bytes of the first write went out.
    mutating func sent(_ count: Int) {
        written += count
        bytesSent += Int64(count)
    }

    /// The first item is done with (sent, or nothing to send).
    mutating func removeFirst() {
        items.removeFirst()
        written = 0
    }

    /// Takes out the writes whose timeout passed (what was not sent of them is dropped); returns their tokens.
    mutating func expireWrites(now: ContinuousClock.Instant) -> [UInt64] {
        var kept: [Item] = []
        var expired: [UInt64] = []
        for (index, item) in items.enumerated() {
            guard case .write(_, let token, let deadline) = item, deadline <= now else {
                kept.append(item)
                continue
            }
            if index == 0 { written = 0 }
            expired.append(token)
        }
        items = kept
        return expired
    }

    /// The write timeouts still running.
    var deadlines: [ContinuousClock.Instant] {
        items.compactMap { item in
            if case .write(_, _, let deadline) = item { deadline } else { nil }
        }
    }

    /// Everything queued is dropped (the connection closes); returns the tokens of the writes that never went.
    mutating func removeAll() -> [UInt64] {
        defer {
            items = []
            written = 0
        }
        return items.compactMap { item in
            if case .write(_, let token, _) = item { token } else { nil }
        }
    }
}
