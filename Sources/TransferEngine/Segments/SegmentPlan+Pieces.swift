// A piece that failed its hash is fetched again: its bytes leave the plan's received ones.

extension SegmentPlan {
    /// Makes `range` (bytes all received) a part of its own that nobody fetches yet, so a connection
    /// fetches it again; the parts it cut keep their owners and what they received around it.
    mutating func reopen(_ range: Range<Int64>) {
        var result: [Part] = []
        for part in parts {
            guard part.start < range.upperBound, range.lowerBound < part.end else {
                result.append(part)
                continue
            }
            if part.start < range.lowerBound {
                let end = range.lowerBound
                result.append(Part(start: part.start, next: min(part.next, end), end: end, owner: nil, requested: min(part.next, end)))
            }
            let (start, end) = (max(part.start, range.lowerBound), min(part.end, range.upperBound))
            result.append(Part(start: start, next: start, end: end, owner: nil, requested: start))
            if range.upperBound < part.end {
                let start = range.upperBound
                let next = max(part.next, start)
                result.append(Part(start: start, next: next, end: part.end, owner: part.owner, requested: max(part.requested, next)))
            }
        }
        parts = result
    }
}
