/// The path a transfer should take for its session's flags, or why it has none.
public enum PathChoice: Sendable, Equatable {
    case use(NetworkPath)
    /// No available path the flags allow. `reason`: when an AVAILABLE path exists that the flags refused, why the most preferred such path was refused: "cellular" (a cellular path without allowsCellularAccess), else "expensive" (an expensive path without allowsExpensiveNetworkAccess), else "constrained"; nil when no available path exists at all. (NSURLErrorNetworkUnavailableReasonKey's values.)
    case unavailable(reason: String?)

    /// The first available path in `states` (most preferred first) that the flags allow.
    static func choose(
        among states: [NetworkPathState],
        allowsCellularAccess: Bool,
        allowsExpensiveNetworkAccess: Bool,
        allowsConstrainedNetworkAccess: Bool
    ) -> PathChoice {
        var firstRefusal: String?
        for state in states where state.isAvailable {
            let path = state.path
            let refusal: String? =
                if path.isCellular && !allowsCellularAccess {
                    "cellular"
                } else if path.isExpensive && !allowsExpensiveNetworkAccess {
                    "expensive"
                } else if path.isConstrained && !allowsConstrainedNetworkAccess {
                    "constrained"
                } else {
                    nil
                }
            guard let refusal else { return .use(path) }
            firstRefusal = firstRefusal ?? refusal
        }
        return .unavailable(reason: firstRefusal)
    }
}
