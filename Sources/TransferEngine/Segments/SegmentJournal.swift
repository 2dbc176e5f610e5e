import Dispatch
import Foundation
import TransferModels

/// The durable record of a segmented download's progress: a small JSON file beside its partial file
/// (`<partial>.segments`). A file fetched in parts has holes until the end, so its size says nothing about
/// what it holds; the journal does. It is written after the partial file's bytes are synced
/// (`fdatasync`), then synced itself and renamed into place, so after a crash — power cut or kill -9 —
/// every byte it claims is in the file, and each part continues by `Range` where the journal says.
///
/// A partial file with a journal is a segmented one: its journal goes (and moves) with it. The journal
/// is written first, before any byte of the file, so a segmented file is never found without it.
public enum SegmentJournal {
    /// The journal of `partialPath`.
    public static func path(for partialPath: String) -> String { partialPath + ".segments" }

    /// Where the segmented download in `partialPath` stopped; nil when it has no journal, or one that is
    /// not whole (then the file cannot be continued).
    public static func read(partialPath: String) -> SegmentedResume? {
        guard let data = FileManager.default.contents(atPath: path(for: partialPath)),
            let resume = try? JSONDecoder().decode(SegmentedResume.self, from: data), resume.plan() != nil
        else { return nil }
        return resume
    }

    /// Whether `partialPath` has a journal (a segmented file, whole or not).
    public static func exists(partialPath: String) -> Bool {
        access(path(for: partialPath), F_OK) == 0
    }

    /// Forgets the journal of `partialPath`: a checkpoint still under way for it is not renamed into place.
    /// Called before the file is started again from 0, or removed, and once the download is complete.
    public static func remove(partialPath: String) {
        writers.withLock { writers in
            writers.byPath[partialPath] = nil
            unlink(path(for: partialPath))
        }
    }

    /// The journal follows its partial file (`rename`); nothing happens when there is none.
    public static func move(from partialPath: String, to newPath: String) {
        writers.withLock { writers in
            (writers.byPath[partialPath], writers.byPath[newPath]) = (nil, nil)
            rename(path(for: partialPath), path(for: newPath))
        }
    }

    /// The writer each partial file's journal belongs to, by a number no other writer had: a checkpoint
    /// renames its journal into place only while its writer is still the file's, so a late one (a stopped
    /// attempt's) never overwrites the journal of the next attempt, nor brings back one that was removed.
    /// Entries live while a download may still continue its file (removed with its journal).
    static let writers = LockedBox<(last: Int, byPath: [String: Int])>((0, [:]))

    /// Makes a new writer the journal's of `partialPath`.
    static func claim(_ partialPath: String) -> Int {
        writers.withLock { writers in
            writers.last += 1
            writers.byPath[partialPath] = writers.last
            return writers.last
        }
    }

    /// Writes `resume` as the journal of `partialPath` if `writer` is still the file's: the bytes go to
    /// a temporary file, synced, then renamed (the rename under the writers' lock).
    static func write(_ resume: SegmentedResume, partialPath: String, writer: Int) throws {
        let data = try JSONEncoder().encode(resume)
        let temporary = path(for: partialPath) + ".\(writer).tmp"  // one per writer: two never share it
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { try SegmentFile.write(descriptor, $0, at: 0) }
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        writers.withLock { writers in
            _ = writers.byPath[partialPath] == writer ? rename(temporary, path(for: partialPath)) : unlink(temporary)
        }
    }
}

/// A segmented download's file, written at offsets by every connection (`pwrite`), synced by checkpoints
/// off the loop thread.
///
/// `@unchecked Sendable`: `descriptor` never changes; `pwrite` and `fdatasync` may be called on it from any
/// thread, and it is closed in `deinit`, once no checkpoint holds the file any more.
final class SegmentFile: @unchecked Sendable {
    let path: String
    let descriptor: Int32

    /// Opens (creating) the file at `path` without cutting what it holds.
    init(path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        self.path = path
        self.descriptor = descriptor
    }

    /// Makes the file `length` bytes long with its space reserved (`posix_fallocate`: extents, no bytes
    /// written, on the file systems that have them), so a full disk fails the download now rather than
    /// midway. Called once its journal exists.
    func reserve(_ length: Int64) throws {
        let code = posix_fallocate(descriptor, 0, off_t(length))
        guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
    }

    deinit { close(descriptor) }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        try Self.write(descriptor, bytes, at: offset)
    }

    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            done += written
        }
    }
}

/// Writes one download's checkpoints in order, off the engine's loop thread: the file's bytes synced,
/// then the journal. A checkpoint asked for while one is under way is skipped (the next one carries
/// the later state); the last one of an attempt is always written.
///
/// `@unchecked Sendable`: `file` and `number` never change; `isBusy` is locked; the
/// writes happen on `queue`, in order.
final class SegmentJournalWriter: @unchecked Sendable {
    let file: SegmentFile
    /// This writer's number (`SegmentJournal.writers`).
    let number: Int
    private let queue = DispatchQueue(label: "urlsessiond-segment-journal")
    private let isBusy = LockedBox(false)

    /// Claims the journal of `file` and writes `first` at once, before any byte of the file: a segmented
    /// file never exists without its journal. The first journal has no data to sync, so this costs the
    /// journal's own write (on the loop thread, once per download).
    init(file: SegmentFile, first: SegmentedResume) throws {
        self.file = file
        self.number = SegmentJournal.claim(file.path)
        try SegmentJournal.write(first, partialPath: file.path, writer: number)
    }

    /// Records `resume` unless a checkpoint is under way; `final` ones are queued whatever, and `then`
    /// runs once a final one is written (or could not be).
    func checkpoint(_ resume: SegmentedResume, final: Bool = false, then: (@Sendable () -> Void)? = nil) {
        let skip = isBusy.withLock { busy -> Bool in
            if busy && !final { return true }
            busy = true
            return false
        }
        guard !skip else { return }
        queue.async { [file, number, isBusy] in
            defer {
                isBusy.withLock { $0 = false }
                then?()
            }
            // The bytes the journal claims reach the disk before the journal that claims them.
            guard fdatasync(file.descriptor) == 0 else { return }
            try? SegmentJournal.write(resume, partialPath: file.path, writer: number)
        }
    }
}
