import Foundation

extension Transfer {
    /// libcurl's send buffer for a request body (`CURLOPT_UPLOAD_BUFFERSIZE`): the body's length between
    /// libcurl's default (64 KiB, for small bodies) and its largest (2 MiB), 2 MiB for a stream of unknown
    /// length. Each fill of it is one read callback and one `send`: at 64 KiB a GiB took 16,000 of each and
    /// as many chances to find a streamed body's buffer empty; at 2 MiB the engine's loop spent about a
    /// third less CPU on the same GiB (BENCHMARKS.md, "Uploads at line rate").
    static func uploadBufferSize(for body: OutgoingRequest.Body) -> Int {
        let smallest = 64 * 1024
        let largest = 2 * 1024 * 1024
        guard body.length >= 0 else { return largest }
        return Int(min(max(body.length, Int64(smallest)), Int64(largest)))
    }
}
