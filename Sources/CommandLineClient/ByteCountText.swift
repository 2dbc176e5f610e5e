/// Sizes and durations as people read them on a progress line: binary units with one decimal, h:mm:ss.
public enum ByteCountText {
    /// `512 B`, `12.3 KiB`, `4.0 MiB`, `1.2 GiB`.
    public static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        var value = Double(max(0, count))
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(Int(value)) B" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// `0:04`, `12:05`, `1:02:03`; whole seconds, rounded up so that a last fraction does not read `0:00`.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "--:--" }
        let total = Int(min(seconds.rounded(.up), 359_999))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
