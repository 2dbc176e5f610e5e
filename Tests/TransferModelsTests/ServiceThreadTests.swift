import Foundation
import Testing

@testable import TransferModels

/// The service's own threads carry their names into the kernel, where `top -H`, `perf` and `/proc` read them.
@Suite("Service threads", .timeLimit(.minutes(1)))
struct ServiceThreadTests {
    @Test
    func theKernelNameDropsTheServicePrefixAndKeepsFifteenBytes() {
        #expect(ServiceThread.kernelName(for: "urlsessiond-engine") == "engine")
        #expect(ServiceThread.kernelName(for: "urlsessiond-object-store") == "object-store")
        #expect(ServiceThread.kernelName(for: "urlsessiond-") == "urlsessiond-")  // nothing would be left
        #expect(ServiceThread.kernelName(for: "a-rather-long-thread-name") == "a-rather-long-t")
        // Whole characters only: seven two-byte characters (14 bytes), not seven and a half.
        #expect(ServiceThread.kernelName(for: "urlsessiond-" + String(repeating: "é", count: 9)) == String(repeating: "é", count: 7))
    }

    @Test
    func aStartedThreadShowsItsNameInProc() async throws {
        let seen = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            ServiceThread.start(name: "urlsessiond-webhooks") {
                continuation.resume(with: Result { try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) })
            }
        }
        #expect(seen == "webhooks\n")
    }
}
