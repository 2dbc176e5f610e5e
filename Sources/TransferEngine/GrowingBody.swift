import Foundation
public import TransferModels

/// A data or upload task's response body while it arrives, readable by any number of readers at once
/// (`GET /v1/tasks/{id}/data` of a running task, `deliverData` events).
///
/// It is the sink's own storage, not a copy: the bytes in memory while the body is small, then a
/// descriptor of the spill file opened for reading when the sink spills (the sink writes the file, the
/// readers `pread` it). Readers therefore never hold the body themselves and never slow the transfer: the
/// loop thread only appends under a short lock and rings the readers' doorbells. The descriptor is the
/// body's own, so a reader goes on reading after the spill file is renamed into its kept place at the
/// completion (or unlinked after a failure); it is closed when the last reader lets go.
///
/// `@unchecked` is not needed: everything mutable is in `state`, a `LockedBox`. `file` is set once and
/// closed only in `deinit`, so a reader may `pread` it outside the lock.
public final class GrowingBody: Sendable {
    public typealias End = ReceivedBodyEnd
    public typealias Status = ReceivedBodyStatus

    private struct State {
        /// The bytes, until the sink spills them to its file.
        var memory: [UInt8] = []
        /// The spill file, open for reading; -1 while the body is in memory.
        var file: Int32 = -1
        var length: Int64 = 0
        var end: End?
        var contentType: String?
        var expectedLength: Int64 = -1
        var doorbells: [ObjectIdentifier: Doorbell] = [:]
    }

    private let state = LockedBox(State())

    init() {}

    deinit {
        let file = state.withLock { $0.file }
        if file >= 0 { close(file) }
    }

    // MARK: Readers

    /// The response's `Content-Type`, as the origin sent it.
    public var contentType: String? { state.withLock { $0.contentType } }
    /// The body's announced length (`Content-Length` of an identity-encoded response); -1 when unknown.
    public var expectedLength: Int64 { state.withLock { $0.expectedLength } }
    public var status: Status { state.withLock { Status(length: $0.length, end: $0.end) } }

    /// Up to `count` bytes from `offset`, as many as have arrived (none when the reader is ahead of the
    /// transfer), and the status they were read at.
    /// - Throws: `POSIXError` when the spill file cannot be read.
    public func read(from offset: Int64, upTo count: Int) throws -> (bytes: [UInt8], status: Status) {
        let (bytes, file, status) = state.withLock { state -> ([UInt8], Int32, Status) in
            let status = Status(length: state.length, end: state.end)
            guard offset < state.length, count > 0, state.file < 0 else { return ([], state.file, status) }
            let end = Int(min(state.length, offset + Int64(count)))
            return (Array(state.memory[Int(offset)..<end]), -1, status)
        }
        guard file >= 0, offset < status.length, count > 0 else { return (bytes, status) }
        let wanted = Int(min(Int64(count), status.length - offset))
        var buffer = [UInt8](repeating: 0, count: wanted)
        var got = 0
        while got < wanted {  // bounded: every turn reads at least one byte, or returns or throws
            let read = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress! + got, wanted - got, off_t(offset) + off_t(got)) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { throw POSIXError(POSIXErrorCode(rawValue: read < 0 ? errno : EIO) ?? .EIO) }
            got += read
        }
        return (buffer, status)
    }

    /// `doorbell` rings (`.events`) whenever bytes arrive or the body ends, until `unsubscribe`.
    public func subscribe(_ doorbell: Doorbell) {
        state.withLock { $0.doorbells[ObjectIdentifier(doorbell)] = doorbell }
    }

    public func unsubscribe(_ doorbell: Doorbell) {
        state.withLock { _ = $0.doorbells.removeValue(forKey: ObjectIdentifier(doorbell)) }
    }

    // MARK: The sink (engine loop thread)

    /// The response whose body this is: what readers answer with.
    func respond(contentType: String?, expectedLength: Int64) {
        state.withLock {
            $0.contentType = contentType
            $0.expectedLength = expectedLength
        }
    }

    /// The bytes while the body is in memory (the sink's body at the end).
    var memory: [UInt8] { state.withLock { $0.memory } }

    func append(_ bytes: UnsafeRawBufferPointer) {
        changed {
            $0.memory.append(contentsOf: bytes)
            $0.length += Int64(bytes.count)
        }
    }

    /// The sink wrote every byte so far to `path`: readers read it there from now on.
    func spilled(to path: String) throws {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        state.withLock {
            $0.file = file
            $0.memory = []
        }
    }

    /// The sink wrote `count` more bytes to the spill file.
    func grew(by count: Int) {
        changed { $0.length += Int64(count) }
    }

    func end(_ end: End) {
        changed { if $0.end == nil { $0.end = end } }
    }

    /// Applies `change`, then rings the readers outside the lock.
    private func changed(_ change: (inout State) -> Void) {
        let doorbells = state.withLock { state -> [Doorbell] in
            change(&state)
            return state.doorbells.isEmpty ? [] : Array(state.doorbells.values)
        }
        for doorbell in doorbells { doorbell.ring(.events) }
    }
}
