import Foundation
import NetworkPaths
import TransferEngine
import TransferModels

// The network path a job leaves by (its flags decide: `NoUsablePath` when none is available) and the
// proxy and traffic class that go with it.
extension JobFactory {
    /// The path a request leaves by, with what its flags (the session's AND the request's) allow.
    func networkPath(for request: URLRequestSnapshot) throws(NoUsablePath) -> NetworkPath {
        let choice = networks.choose(
            allowsCellularAccess: request.allowsCellularAccess, allowsExpensiveNetworkAccess: request.allowsExpensiveNetworkAccess,
            allowsConstrainedNetworkAccess: request.allowsConstrainedNetworkAccess)
        switch choice {
        case .use(let path): return path
        case .unavailable(let reason): throw NoUsablePath(reason: reason)
        }
    }

    /// The job's path and the proxy it implies: the session's `connectionProxyDictionary` when it has one
    /// (`{}` is direct), else the system proxy — the path's own, or the operator's `URLSESSIOND_PROXY`.
    func route(_ job: inout TransferJob, on path: NetworkPath, configuration session: SessionConfiguration) {
        job.networkPath = TransferNetworkPath(
            name: path.name, curlInterface: path.curlInterface, interface: path.interfaceDescription, isCellular: path.isCellular,
            isExpensive: path.isExpensive, isConstrained: path.isConstrained)
        if let dictionary = session.connectionProxyDictionary {
            // A stream's TCP connection is tunnelled as HTTPS is (CONNECT): the HTTPS proxy, else SOCKS.
            let target = job.stream.map { "https://\($0.hostName)" } ?? job.request.url
            (job.proxy, job.noProxy) = Self.proxy(for: target, dictionary)
            job.proxyLogin = Self.socksLogin(for: job.proxy, dictionary)
        } else if let system = path.proxy ?? configuration.systemProxy {
            (job.proxy, job.noProxy) = (system, configuration.systemNoProxy)
        }
        job.trafficClass = Self.trafficClass(of: session.networkServiceType)
    }

    /// `networkServiceType` → the TOS byte of the task's sockets (DSCP << 2), as Apple maps service
    /// classes to DSCP (RFC 4594): nil leaves the system's default.
    static func trafficClass(of type: NetworkServiceType) -> Int32? {
        let dscp: Int32? =
            switch type {
            case .default: nil
            case .background: 8  // CS1, lower effort
            case .responsiveData: 18  // AF21, low-latency data
            case .avStreaming, .responsiveAV, .video: 34  // AF41, multimedia
            case .voice: 46  // EF, telephony
            case .callSignaling: 24  // CS3, signalling
            }
        return dscp.map { $0 << 2 }
    }
}
