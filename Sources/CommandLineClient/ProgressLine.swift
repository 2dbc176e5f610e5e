/// One line of a transfer's progress: what has arrived, of how much, how fast and how long is left.
///
/// ```
///  42% [=============>                    ]  12.3 MiB / 29.0 MiB  4.1 MiB/s  0:04 left
///      [     <=>                          ]  12.3 MiB             4.1 MiB/s
/// ```
/// The second form is for a response without a length: the bar cannot fill, so a marker moves instead.
public struct ProgressLine: Sendable, Equatable {
    public var received: Int64
    public var expected: Int64?
    public var bytesPerSecond: Double?
    public var secondsLeft: Double?

    public init(received: Int64, expected: Int64?, bytesPerSecond: Double?, secondsLeft: Double?) {
        self.received = received
        self.expected = expected.flatMap { $0 > 0 ? $0 : nil }
        self.bytesPerSecond = bytesPerSecond
        self.secondsLeft = secondsLeft
    }

    /// The line for a terminal `columns` wide: the bar takes what the figures leave, at least 10 columns.
    /// The line stops one column short of the edge: writing the last column makes some terminals wrap,
    /// and the next redraw would then start on a new line.
    public func rendered(columns: Int) -> String {
        let amount = expected.map { "\(ByteCountText.bytes(received)) / \(ByteCountText.bytes($0))" } ?? ByteCountText.bytes(received)
        var figures = "  \(amount)"
        if let bytesPerSecond { figures += "  \(ByteCountText.bytes(Int64(bytesPerSecond)))/s" }
        if let secondsLeft { figures += "  \(ByteCountText.duration(secondsLeft)) left" }
        // Right-aligned in four columns, so the bar does not jump as the percent grows a digit.
        let percent =
            fraction.map { fraction in
                let digits = String(Int(fraction * 100))
                return String(repeating: " ", count: max(0, 3 - digits.count)) + digits + "% "
            } ?? "     "
        let barWidth = max(10, columns - percent.count - figures.count - 2 - 1)
        return percent + "[" + bar(width: barWidth) + "]" + figures
    }

    /// The line where no terminal redraws it: no bar, one line per report.
    public var plain: String {
        var line = fraction.map { "\(Int($0 * 100))% " } ?? ""
        line += expected.map { "\(ByteCountText.bytes(received)) of \(ByteCountText.bytes($0))" } ?? ByteCountText.bytes(received)
        if let bytesPerSecond { line += ", \(ByteCountText.bytes(Int64(bytesPerSecond)))/s" }
        if let secondsLeft { line += ", \(ByteCountText.duration(secondsLeft)) left" }
        return line
    }

    private var fraction: Double? {
        expected.map { min(1, max(0, Double(received) / Double($0))) }
    }

    private func bar(width: Int) -> String {
        guard let fraction else {
            // No length: a three-column marker moves with the bytes, one column per 64 KiB.
            let span = max(1, width - 3)
            let step = Int((received / 65_536) % Int64(2 * span))
            let offset = step < span ? step : 2 * span - step
            return String(repeating: " ", count: offset) + "<=>" + String(repeating: " ", count: width - 3 - offset)
        }
        let filled = Int((fraction * Double(width)).rounded(.down))
        if filled >= width { return String(repeating: "=", count: width) }
        return String(repeating: "=", count: filled) + ">" + String(repeating: " ", count: width - filled - 1)
    }
}
