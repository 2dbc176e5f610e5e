import Foundation

extension ClusterNode {
    /// The first element of `replies` that decodes (JSON) as `Reply` and `matches`, or nil when none comes
    /// within `timeout`: how a node waits for another node's answer to what it sent it (a forwarded control
    /// call, an offered decision answer). The caller subscribes before it sends, so that the reply cannot
    /// come before the stream exists.
    func firstReply<Reply: Decodable & Sendable>(
        _ type: Reply.Type, on replies: AsyncStream<String>, within timeout: Duration,
        matching matches: @escaping @Sendable (Reply) -> Bool
    ) async -> Reply? {
        await withTaskGroup(of: Reply?.self) { group in
            group.addTask {
                for await payload in replies {
                    guard let reply = try? JSONDecoder().decode(Reply.self, from: Data(payload.utf8)) else { continue }
                    if matches(reply) { return reply }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
