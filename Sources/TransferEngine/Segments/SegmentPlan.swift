/// The byte ranges of a segmented download and which connection fetches each: a value, so the rules of
/// splitting and stealing are tested without a network.
///
/// The parts partition `0..<length`. Of part `i`, the bytes `start..<next` are in the file and
/// `next..<end` are still to come. A connection works on one part at a time and asks for at most a
/// request's worth of it (`requested` is where its request in flight stops), so what lies beyond every
/// request in flight can be handed to an idle connection without stopping anyone: that is the work
/// stealing, and no connection is closed for it. Only the first response (a plain GET, whose body runs to
/// the end of the representation) has no bound of its own: it is cut where its part ends, wherever that
/// moves, so all of its part past what it received can be taken (its `requested` stays at `next`).
struct SegmentPlan: Hashable, Sendable {
    struct Part: Hashable, Sendable {
        var start: Int64
        var next: Int64
        var end: Int64
        /// The connection fetching it; nil while none is.
        var owner: Int?
        /// Where the owner's request in flight stops (`next` when it has none): the bytes from here on
        /// are not asked for yet.
        var requested: Int64

        var remaining: Int64 { end - next }
        var isDone: Bool { next >= end }
        /// The bytes no request asks for yet: what another connection may take.
        var unrequested: Int64 { end - max(requested, next) }
    }

    let length: Int64
    /// No part is made smaller than this by a split (the user's `segments.minSize`).
    let minimumPartSize: Int64
    /// Every boundary between parts is a multiple of this (a Metalink's piece length: each piece is then
    /// fetched within one part, `SegmentPlan+Pieces`); 1 otherwise.
    var alignment: Int64 = 1
    /// Changed only by this type and its extensions (`reopen`).
    var parts: [Part]

    /// A new download of `length` bytes, cut into `count` parts of equal size (the last takes the rest),
    /// none of them smaller than `minimumPartSize`, their boundaries multiples of `alignment`.
    init(length: Int64, minimumPartSize: Int64, count: Int, alignment: Int64 = 1) {
        self.length = length
        self.minimumPartSize = max(1, minimumPartSize)
        self.alignment = max(1, alignment)
        let pieces = Int64(max(1, min(Int64(count), length / self.minimumPartSize)))
        let step = self.alignment
        let bounds = (0...pieces).map { index in index == pieces ? length : length * index / pieces / step * step }
        parts = zip(bounds, bounds.dropFirst()).filter { $0 < $1 }.map { start, end in
            Part(start: start, next: start, end: end, owner: nil, requested: start)
        }
    }

    /// The parts of a journal: `(start, next, end)` triples that must partition `0..<length` in order;
    /// nil when they do not (a journal that is not ours, or damaged), so the download starts again.
    init?(length: Int64, minimumPartSize: Int64, ranges: [(start: Int64, next: Int64, end: Int64)]) {
        guard length > 0, !ranges.isEmpty else { return nil }
        var position: Int64 = 0
        for range in ranges {
            guard range.start == position, range.start <= range.next, range.next <= range.end, range.start < range.end else {
                return nil
            }
            position = range.end
        }
        guard position == length else { return nil }
        self.length = length
        self.minimumPartSize = max(1, minimumPartSize)
        parts = ranges.map { Part(start: $0.start, next: $0.next, end: $0.end, owner: nil, requested: $0.next) }
    }

    /// Every byte is in the file.
    var isComplete: Bool { parts.allSatisfy(\.isDone) }

    /// The bytes in the file (what `countOfBytesReceived` shows).
    var receivedBytes: Int64 { parts.reduce(0) { $0 + ($1.next - $1.start) } }

    /// The bytes still to come.
    var remainingBytes: Int64 { length - receivedBytes }

    /// The part `owner` works on.
    func part(of owner: Int) -> Part? {
        parts.first { $0.owner == owner }
    }

    /// Whether another connection would find work: a part nobody fetches, or a part whose unrequested
    /// bytes can be split in two parts of at least `minimumPartSize`.
    var hasWorkForAnotherConnection: Bool {
        parts.contains { ($0.owner == nil && !$0.isDone) || $0.unrequested >= 2 * minimumPartSize }
    }

    /// The next range `owner` asks for, at most `size` bytes: the rest of its own part; else the first part
    /// nobody fetches; else the second half of the largest unrequested stretch (work stealing); nil when
    /// there is nothing left worth a request of its own. Toward the end, requests shrink so that the
    /// connections finish together: none asks for more than its share of what nobody has asked for yet
    /// (nor for less than a minimum part).
    mutating func nextRequest(for owner: Int, size: Int64) -> Range<Int64>? {
        let connections = Int64(Set(parts.compactMap(\.owner)).union([owner]).count)
        let share = parts.reduce(0) { $0 + $1.unrequested } / connections
        let size = max(1, min(size, max(minimumPartSize, share)))
        if let index = parts.firstIndex(where: { $0.owner == owner }) {
            if !parts[index].isDone { return request(index, size) }
            parts[index].owner = nil
        }
        if let index = parts.firstIndex(where: { $0.owner == nil && !$0.isDone }) {
            parts[index].owner = owner
            return request(index, size)
        }
        guard let victim = parts.indices.max(by: { parts[$0].unrequested < parts[$1].unrequested }),
            parts[victim].unrequested >= 2 * minimumPartSize
        else { return nil }
        let from = max(parts[victim].requested, parts[victim].next)
        let middle = (from + parts[victim].unrequested / 2) / alignment * alignment
        guard middle > from, middle < parts[victim].end else { return nil }
        let stolen = Part(start: middle, next: middle, end: parts[victim].end, owner: owner, requested: middle)
        parts[victim].end = middle
        parts.insert(stolen, at: victim + 1)
        return request(victim + 1, size)
    }

    /// `owner` has received `count` more bytes at its part's `next`: how many of them belong to the part
    /// (the rest belong to the part after it, which another connection fetches), and whether the part is
    /// now complete.
    mutating func receive(_ count: Int64, by owner: Int) -> (kept: Int64, partIsDone: Bool)? {
        guard let index = parts.firstIndex(where: { $0.owner == owner }) else { return nil }
        let kept = min(count, parts[index].remaining)
        parts[index].next += kept
        return (kept, parts[index].isDone)
    }

    /// `owner`'s request ended (completely, or cut short by the server): nothing of its part is in flight.
    mutating func requestEnded(by owner: Int) {
        guard let index = parts.firstIndex(where: { $0.owner == owner }) else { return }
        parts[index].requested = parts[index].next
        if parts[index].isDone { parts[index].owner = nil }
    }

    /// `owner` stops (a failure, or it yields its connection): its part waits for another connection.
    mutating func release(_ owner: Int) {
        guard let index = parts.firstIndex(where: { $0.owner == owner }) else { return }
        parts[index].owner = nil
        parts[index].requested = parts[index].next
    }

    /// Gives the part that starts at `start` to `owner` (a resumed download's first request).
    mutating func assign(startingAt start: Int64, to owner: Int) {
        guard let index = parts.firstIndex(where: { $0.next == start && !$0.isDone && $0.owner == nil }) else { return }
        parts[index].owner = owner
        parts[index].requested = parts[index].next
    }

    /// The parts as a journal keeps them, neighbours that are both complete merged.
    var journalRanges: [(start: Int64, next: Int64, end: Int64)] {
        var ranges: [(start: Int64, next: Int64, end: Int64)] = []
        for part in parts {
            if let last = ranges.last, last.next == last.end, part.isDone {
                ranges[ranges.count - 1] = (last.start, part.end, part.end)
            } else {
                ranges.append((part.start, part.next, part.end))
            }
        }
        return ranges
    }

    private mutating func request(_ index: Int, _ size: Int64) -> Range<Int64> {
        let from = parts[index].next
        parts[index].requested = min(parts[index].end, from + size)
        return from..<parts[index].requested
    }
}
