import Curl
import TransferModels

extension Transfer {
    /// The options that decide where and how a job's connection is made — the safety baseline (protocols,
    /// the egress check at connect time, no proxy from the environment), the URL, the session's proxy and
    /// its exceptions, the network path's interface, the traffic class, the TLS versions. Every connection
    /// of a job is made with these, HTTP transfers (`prepare()`) and WebSocket connections alike, so a
    /// session setting cannot apply to one and not the other.
    static func applyConnectionOptions(
        to easy: CurlEasyHandle, job: TransferJob, url: String, configuration: EngineConfiguration
    ) throws {
        try easy.apply(configuration.safetyBaseline)
        try easy.set(.url, url)
        try easy.set(.proxy, job.proxy ?? "")  // "" = no proxy, environment variables ignored
        if let noProxy = job.noProxy { try easy.set(.noProxy, noProxy) }
        if let login = job.proxyLogin, job.proxy != nil {
            try easy.set(.proxyUsername, login.user)
            try easy.set(.proxyPassword, login.password)
        }
        if let interface = job.networkPath?.curlInterface { try easy.set(.interface, interface) }
        try easy.setTrafficClass(job.trafficClass)
        easy.setMultipath(job.multipathServiceType != .none)
        try easy.setTLSVersions(minimum: job.tlsMinimumVersion, maximum: job.tlsMaximumVersion)
    }
}
