import CommandLineClient
import Testing

@Suite("A download's progress line")
struct ProgressLineTests {
    @Test("a known length shows percent, a bar, the amounts, the rate and the time left, in the terminal's width")
    func knownLength() {
        let line = ProgressLine(received: 12 * 1_048_576, expected: 29 * 1_048_576, bytesPerSecond: 4.1 * 1_048_576, secondsLeft: 4.2)
        let text = line.rendered(columns: 80)
        #expect(text.count == 79)  // one short of the edge, where some terminals wrap
        #expect(text.hasPrefix(" 41% [="))
        #expect(text.hasSuffix("]  12.0 MiB / 29.0 MiB  4.1 MiB/s  0:05 left"))
        #expect(line.plain == "41% 12.0 MiB of 29.0 MiB, 4.1 MiB/s, 0:05 left")
    }

    @Test("the bar is full at the end and never longer than its width")
    func fullBar() {
        let text = ProgressLine(received: 100, expected: 100, bytesPerSecond: nil, secondsLeft: nil).rendered(columns: 40)
        #expect(text == "100% [" + String(repeating: "=", count: 17) + "]  100 B / 100 B")
        #expect(text.count == 39)
    }

    @Test("without a length a marker moves and no percent or time left is shown")
    func unknownLength() {
        let first = ProgressLine(received: 0, expected: nil, bytesPerSecond: 1000, secondsLeft: nil).rendered(columns: 60)
        let later = ProgressLine(received: 5 * 65_536, expected: nil, bytesPerSecond: 1000, secondsLeft: nil).rendered(columns: 60)
        #expect(first.hasPrefix("     [<=>"))
        #expect(later.hasPrefix("     [     <=>"))
        #expect(first.count == 59 && later.count == 59)
        #expect(!first.contains("%") && !first.contains("left"))
    }

    @Test("a narrow terminal still gets a bar of ten columns")
    func narrow() {
        let text = ProgressLine(received: 1, expected: 2, bytesPerSecond: nil, secondsLeft: nil).rendered(columns: 5)
        #expect(text.contains("[=====>    ]"))
    }

    @Test("sizes and durations read as a person reads them")
    func units() {
        #expect(ByteCountText.bytes(0) == "0 B")
        #expect(ByteCountText.bytes(1023) == "1023 B")
        #expect(ByteCountText.bytes(1536) == "1.5 KiB")
        #expect(ByteCountText.bytes(5 * 1_073_741_824) == "5.0 GiB")
        #expect(ByteCountText.duration(0.2) == "0:01")
        #expect(ByteCountText.duration(65) == "1:05")
        #expect(ByteCountText.duration(3723) == "1:02:03")
        #expect(ByteCountText.duration(.infinity) == "--:--")
    }
}

@Suite("The rate over the last seconds")
struct ThroughputMeterTests {
    @Test("the rate is that of the window, not of the whole transfer, so a stall shows at once")
    func window() {
        var meter = ThroughputMeter(window: 2)
        #expect(meter.bytesPerSecond == nil)
        for second in 0...10 { meter.record(bytes: Int64(second) * 1000, at: Double(second)) }
        #expect(meter.bytesPerSecond == 1000)
        #expect(meter.secondsLeft(expected: 20_000) == 10)
        // Nothing more for three seconds: the rate over the window falls to zero, and no end is promised.
        for second in 11...13 { meter.record(bytes: 10_000, at: Double(second)) }
        #expect(meter.bytesPerSecond == 0)
        #expect(meter.secondsLeft(expected: 20_000) == nil)
        #expect(meter.secondsLeft(expected: nil) == nil)
    }
}

@Suite("Progress on a terminal and in a log")
struct TerminalOutputTests {
    @Test("a log gets a line every interval and one at the end; a terminal is redrawn in place")
    func pacing() {
        var log = TerminalOutput(isTerminal: false, plainInterval: 5)
        let line = ProgressLine(received: 1, expected: 2, bytesPerSecond: nil, secondsLeft: nil)
        #expect(log.show(line, now: 0) == "50% 1 B of 2 B\n")
        #expect(log.show(line, now: 1) == "")
        #expect(log.show(line, now: 1, final: true) == "50% 1 B of 2 B\n")
        #expect(log.show(line, now: 6.5) == "50% 1 B of 2 B\n")
        var terminal = TerminalOutput(isTerminal: true)
        let drawn = terminal.show(line, now: 0)
        #expect(drawn.hasPrefix("\r 50% [") && drawn.hasSuffix("\u{1B}[K"))
        #expect(terminal.show(line, now: 0.05) == "")
        #expect(terminal.show(line, now: 0.05, final: true).hasSuffix("\u{1B}[K\n"))
    }
}
