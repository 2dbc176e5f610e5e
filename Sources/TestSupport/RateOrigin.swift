import Foundation

/// `Tests/Fixtures/rate_origin.py` (its doc string lists the endpoints): an HTTP/1.1 origin that serves
/// `/bytes/{n}` (with ranges) as fast as the client takes it, with a small send buffer, and measures what
/// the client acknowledged over time (TCP_INFO), so a bandwidth limit is seen where the sender sees it.
/// Uploads to `/upload` are measured as received. Port from the OS; ``stop()`` (or deinit) ends it.
public final class RateOrigin: Sendable {
    public let port: Int
    private let script: FixtureScript

    private init(script: FixtureScript) {
        self.port = script.port
        self.script = script
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Starts `rate_origin.py` on `127.0.0.1`.
    /// - Throws: ``NetworkLabError`` when there is no Python or the script does not come up within 10 s.
    public static func start() async throws -> RateOrigin {
        RateOrigin(script: try await FixtureScript.start("rate_origin.py", arguments: ["--host", "127.0.0.1", "--port", "0"]))
    }

    /// One response (or upload) the origin measured: the bytes the client had taken at each moment.
    public struct Measurement: Sendable {
        public var path: String
        public var range: String?
        /// (seconds since the epoch, bytes since the response began), oldest first.
        public var samples: [(time: Double, bytes: Double)]
        public var isDone: Bool

        /// The bytes taken by `time` (interpolated between samples; 0 before the first, all after the last).
        public func bytes(at time: Double) -> Double {
            guard let first = samples.first, time > first.time else { return 0 }
            guard let after = samples.firstIndex(where: { $0.time >= time }) else { return samples.last!.bytes }
            let (a, b) = (samples[after - 1], samples[after])
            return a.bytes + (b.bytes - a.bytes) * (time - a.time) / max(b.time - a.time, 1e-9)
        }
    }

    /// What the origin measured of the requests tagged `tag` (`?tag=` in their URL), in order.
    public func measurements(tag: String) async throws -> [Measurement] {
        let response = try await HTTPClient().send(.get("\(url)/samples?tag=\(tag)"))
        guard response.status == 200, let entries = try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]] else {
            throw NetworkLabError("rate_origin.py /samples answered \(response.status)")
        }
        return entries.map { entry in
            let samples = (entry["samples"] as? [[Double]] ?? []).map { (time: $0[0], bytes: $0[1]) }
            return Measurement(
                path: entry["path"] as? String ?? "", range: entry["range"] as? String, samples: samples,
                isDone: entry["done"] as? Bool ?? false)
        }
    }

    /// The rate (bytes per second) at which the requests tagged `tag` took bytes together, from `start` for
    /// `seconds` (times since the epoch).
    public func rate(tag: String, from start: Double, seconds: Double) async throws -> Double {
        let measurements = try await measurements(tag: tag)
        let taken = measurements.reduce(0) { $0 + $1.bytes(at: start + seconds) - $1.bytes(at: start) }
        return taken / seconds
    }

    /// When the first request tagged `tag` began (seconds since the epoch), once one has.
    public func firstStart(tag: String) async throws -> Double? {
        try await measurements(tag: tag).compactMap { $0.samples.first?.time }.min()
    }

    /// Ends the script (blocking, see ``FixtureScript/stop()``). Later calls do nothing.
    public func stop() { script.stop() }
}
