import Foundation
import TransferModels

/// Notices clients that left in the middle of a streamed request body when MHD does not.
///
/// MHD 0.9.75's epoll loop is edge-triggered and stops reading a socket once a `recv` returns less than
/// it asked for. When the client's FIN arrived together with its last bytes, that `recv` takes the bytes,
/// no new edge comes, and the end of the stream is never read: the request stays open until the idle
/// timeout, and a streamed upload waits for a body that cannot come (about one aborted upload in two on
/// loopback). Every half second this looks at each body MHD is reading: a socket at its end at
/// `looksBeforeHangup` looks in a row (2 to 2.5 s), with the body neither complete nor suspended and no
/// byte handed over in between, is shut down, which wakes MHD's loop (a hang-up edge) so it reads the end
/// and ends the request as a client abort — the upload then fails -1021.
///
/// Several looks in a row, because a body whose last bytes MHD read with the end but has not handed over
/// yet (a client that half-closes after a complete body) is complete as soon as MHD's thread runs: two
/// looks half a second apart were not always enough on a loaded machine (CI, three tests at a time on two
/// cores), and cutting such a client off loses its answer, while a client that left only waits longer.
final class ClientHangupWatch: Sendable {
    static let interval = Duration.milliseconds(500)
    static let looksBeforeHangup = 5

    private let bodies = LockedBox<[ObjectIdentifier: StreamedRequestBody]>([:])

    func watch(_ body: StreamedRequestBody) {
        bodies.withLock { $0[ObjectIdentifier(body)] = body }
    }

    /// Looks every `interval` until `isStopped` answers true.
    func run(isStopped: @escaping @Sendable () -> Bool) async {
        while !isStopped() {
            try? await Task.sleep(for: Self.interval)
            let watched = bodies.withLock { Array($0.values) }
            for body in watched where body.checkForHangup() == .done {
                bodies.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(body)) }
            }
        }
    }
}
