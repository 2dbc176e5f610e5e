import Curl
import Foundation
import TestSupport
import Testing

@testable import TransferEngine

/// The egress verdict on a proxied request's target: an address at once, a name after resolving it off
/// the loop, then from the kept verdict.
@Suite("Proxied targets and the egress policy")
struct ProxiedTargetCheckTests {
    @Test(.timeLimit(.minutes(1)))
    func addressesAreJudgedAtOnceAndNamesByWhatTheyResolveTo() async throws {
        var check = ProxiedTargetCheck()
        let policy = EgressPolicy()  // loopback denied
        guard case .denied(let reason) = check.check("127.0.0.2", policy: policy, done: { _, _ in }) else {
            Issue.record("an address literal is judged at once")
            return
        }
        #expect(reason.contains("loopback"))
        let verdict = LockedVerdict()
        guard case .pending = check.check("localhost", policy: policy, done: { verdict.set($1) }) else {
            Issue.record("a name is resolved first")
            return
        }
        try await eventually(timeout: 10, interval: 0.02) { verdict.value != nil }
        guard case .denied(let why)? = verdict.value else {
            Issue.record("localhost is loopback: \(String(describing: verdict.value))")
            return
        }
        #expect(why.hasPrefix("localhost resolves to"), "\(why)")
        check.record("localhost", try #require(verdict.value))
        guard case .denied = check.check("localhost", policy: policy, done: { _, _ in Issue.record("resolved again") }) else {
            Issue.record("the kept verdict")
            return
        }
        let open = EgressPolicy(allowed: try EgressPolicy.parseAllowList("127.0.0.0/8").get())
        let allowed = check.check("127.0.0.2", policy: open, done: { _, _ in })
        guard case .allowed = allowed else {
            Issue.record("an allowed address: \(allowed)")
            return
        }
    }
}

/// A verdict handed over from the resolver's thread.
private final class LockedVerdict: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: EgressPolicy.Verdict?
    var value: EgressPolicy.Verdict? { lock.withLock { stored } }
    func set(_ verdict: EgressPolicy.Verdict) { lock.withLock { stored = verdict } }
}
