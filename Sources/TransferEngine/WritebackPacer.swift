import CLinux

/// Starts the kernel's writeback of a body file while it is written, a slice at a time, so that the
/// fsync which makes a finished download durable finds little left to write. Without it that fsync
/// waited for the whole file at the end: 0.3–0.4 s per GiB on this machine's disk, after the last byte
/// had arrived (`Benchmarks/transfers.sh`, "Durability cost" in BENCHMARKS.md).
struct WritebackPacer {
    /// How many written bytes start one writeback: large enough that the calls cost nothing next to the
    /// writes, small enough that little is left for the final fsync.
    static let slice: Int64 = 8 << 20

    /// The bytes before this offset have had their writeback started (or were there before).
    private var startedUpTo: Int64

    init(from offset: Int64 = 0) { startedUpTo = offset }

    /// The file at `descriptor` now holds `length` bytes.
    mutating func wrote(upTo length: Int64, descriptor: Int32) {
        guard length - startedUpTo >= Self.slice else {
            if length < startedUpTo { startedUpTo = length }  // cut (`BodySink.truncate`)
            return
        }
        // SYNC_FILE_RANGE_WRITE alone starts the writeback of the range's dirty pages without waiting for
        // it; a failure only means the final fsync does the work, so it is not an error here.
        _ = sync_file_range(descriptor, startedUpTo, length - startedUpTo, CLINUX_SYNC_FILE_RANGE_WRITE)
        startedUpTo = length
    }
}
