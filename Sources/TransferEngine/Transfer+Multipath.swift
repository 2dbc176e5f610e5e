import Curl
import TransferModels

extension Transfer {
    /// A Multipath TCP transfer whose connection has a subflow beyond its first (`MPTCP_INFO`): when its
    /// network path goes down the kernel carries it on the other subflows, so the engine does not end it
    /// with -1005. A multipath connection with no other subflow (no endpoint on another path, or a peer
    /// that fell back to TCP) ends as any other.
    var ridesOtherSubflows: Bool {
        job.multipathServiceType != .none && (easy.multipathSubflows ?? 0) > 0
    }
}
