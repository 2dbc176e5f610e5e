#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where progress goes: redrawn in place on a terminal, or plain lines for a log or a pipe.
///
/// Progress is written to standard error, so that `urlsessiond get URL -o -` can stream the body to
/// standard output. A terminal is redrawn at most ten times a second; a plain stream gets a line every
/// `plainInterval` seconds and one at the end, so that a CI log shows movement without a line per chunk.
public struct TerminalOutput: Sendable {
    /// Whether standard error is a terminal.
    public let isTerminal: Bool
    public var plainInterval: Double
    private var lastWrite: Double?
    private var drewLine = false

    /// Output for standard error as it is: a terminal or not.
    public init(plainInterval: Double = 5) {
        self.init(isTerminal: isatty(STDERR_FILENO) == 1, plainInterval: plainInterval)
    }

    /// Output that behaves as for a terminal or not, whatever standard error is (for tests).
    public init(isTerminal: Bool, plainInterval: Double = 5) {
        self.isTerminal = isTerminal
        self.plainInterval = plainInterval
    }

    /// Shows `line` if enough time has passed since the last one (`now` in seconds from a fixed start),
    /// or always when `final`. Returns the bytes written, for tests.
    @discardableResult
    public mutating func show(_ line: ProgressLine, now: Double, final: Bool = false) -> String {
        let interval = isTerminal ? 0.1 : plainInterval
        if !final, let lastWrite, now - lastWrite < interval { return "" }
        lastWrite = now
        let text: String
        if isTerminal {
            // Clear to the end of the line (`ESC [ K`) so a shorter line leaves nothing of the longer one.
            text = "\r" + line.rendered(columns: Self.columns()) + "\u{1B}[K" + (final ? "\n" : "")
            drewLine = !final
        } else {
            text = line.plain + "\n"
        }
        Self.writeError(text)
        return text
    }

    /// Writes `message` on a line of its own, ending a progress line first when one is drawn.
    public mutating func say(_ message: String) {
        Self.writeError((drewLine ? "\n" : "") + message + "\n")
        drewLine = false
    }

    /// Writes to standard error unbuffered: the progress line must appear as it changes.
    public static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// The terminal's width, or 80 when it cannot be asked.
    public static func columns() -> Int {
        var size = winsize()
        #if canImport(Glibc)
            let request = UInt(TIOCGWINSZ)
        #else
            let request = TIOCGWINSZ
        #endif
        guard ioctl(STDERR_FILENO, request, &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
