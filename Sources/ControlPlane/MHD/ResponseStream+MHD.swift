import CMicroHTTPD
import Foundation
import TransferModels

// The MHD side of `ResponseStream`: a callback response (`MHD_create_response_from_callback`, chunked)
// whose content reader takes buffered bytes, and parks the connection while there are none.
//
// Why parking: in MHD 0.9.75 a reader that returns 0 ("nothing yet") leaves the connection in
// CHUNKED_BODY_UNREADY and MHD calls it again on its next loop turn, which spins. MHD documents
// `MHD_suspend_connection` as callable from the content reader; a suspended connection is out of the
// epoll set, and `MHD_resume_connection` (any thread) puts it back and calls the reader again.
//
// Lock order: the stream's lock, then MHD's internal mutex (the reader suspends under the lock, so no
// resume can slip in between the "buffer empty" check and the suspension). Resumes happen after the
// lock is released.

extension ResponseStream {
    /// Preferred size of one read (MHD's advice; it asks for what fits its write buffer).
    static let blockSize = 16 * 1024

    /// Wraps `MHD_create_response_from_callback` (via `cmhd_create_stream_response`) for this stream on
    /// `connection`. Called on the connection's MHD thread, just before the response is queued. The
    /// response keeps the stream alive until MHD frees it (`mhdStreamReleased`).
    func makeMHDResponse(connection: OpaquePointer) -> OpaquePointer? {
        let retained = Unmanaged.passRetained(self)
        let created =
            if let length {
                cmhd_create_sized_stream_response(length, Self.blockSize, mhdStreamReader, retained.toOpaque(), mhdStreamReleased)
            } else {
                cmhd_create_stream_response(Self.blockSize, mhdStreamReader, retained.toOpaque(), mhdStreamReleased)
            }
        guard let response = created else {
            retained.release()
            return nil
        }
        let socket = cmhd_connection_socket(connection)
        state.withLock { state in
            state.connection = connection
            state.socket = socket
        }
        return response
    }

    /// The content reader: copies up to `capacity` buffered bytes; at the end of a finished stream
    /// answers END_OF_STREAM (MHD sends the last chunk), for an aborted one END_WITH_ERROR (MHD closes
    /// the connection); with nothing buffered it parks the connection and answers 0.
    func read(into destination: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        var drained: CheckedContinuation<Void, Never>?
        let result = state.withLock { state -> Int in
            if state.end == .aborted { return MHD_CONTENT_READER_END_WITH_ERROR }
            let pending = state.pending
            if pending > 0 {
                let count = min(pending, capacity)
                let offset = state.sent
                state.buffer.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(destination).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
                }
                state.sent += count
                if state.sent == state.buffer.count {
                    state.buffer.removeAll(keepingCapacity: state.buffer.capacity <= 64 * 1024)
                    state.sent = 0
                } else if state.sent >= 64 * 1024 {
                    state.buffer.removeFirst(state.sent)  // keep a slow client's backlog from only growing
                    state.sent = 0
                }
                if state.pending < Self.highWater / 2 {
                    drained = state.roomWaiter
                    state.roomWaiter = nil
                }
                return count
            }
            if state.end == .finished { return MHD_CONTENT_READER_END_OF_STREAM }
            guard let connection = state.connection else { return MHD_CONTENT_READER_END_WITH_ERROR }
            MHD_suspend_connection(connection)
            state.isParked = true
            return 0
        }
        drained?.resume()
        return result
    }

    /// While parked, MHD does not watch the socket, so a client that hung up would go unnoticed until
    /// the next write. Peeks at the socket (nothing is consumed) and aborts the stream when the peer
    /// closed it. Only while parked: MHD cannot close the socket then, so the descriptor is still ours.
    func checkPeer() {
        let hungUp = state.withLock { state -> Bool in
            guard state.isParked, state.end == nil, state.socket >= 0 else { return false }
            var byte: UInt8 = 0
            let count = recv(state.socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if count == 0 { return true }  // orderly shutdown by the client
            return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
        }
        if hungUp { abort() }  // resumes the connection; the reader then closes it
    }

    /// Wraps `MHD_resume_connection` for a connection this stream's reader parked.
    func resume(_ connection: OpaquePointer) {
        MHD_resume_connection(connection)
    }
}

/// `MHD_ContentReaderCallback` of stream responses; `cls` is the retained `ResponseStream`.
let mhdStreamReader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
    guard let cls, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
    return Unmanaged<ResponseStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

/// `MHD_ContentReaderFreeCallback`: MHD destroyed the response; drop its reference to the stream.
let mhdStreamReleased: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<ResponseStream>.fromOpaque(cls).release()
}
