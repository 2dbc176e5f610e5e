import Foundation
import TransferEngine
import TransferModels

extension JobFactory {
    /// A task's `segments` as its job's policy (a segmented partial file is known by its journal:
    /// `TaskFiles.segmentedResume`).
    static func segmentPolicy(_ segments: SegmentsConfiguration?) -> SegmentPolicy? {
        segments.map { SegmentPolicy(maximumConnections: $0.max, minimumPartSize: $0.minSize) }
    }

    /// `httpAdditionalHeaders` under the request's own fields: the request wins, names compared without case.
    static func mergedHeaders(request: [String: String], session: [String: String]) -> [(name: String, value: String)] {
        let own = Set(request.keys.map { $0.lowercased() })
        let inherited = session.filter { !own.contains($0.key.lowercased()) }
        return (request.sorted { $0.key < $1.key } + inherited.sorted { $0.key < $1.key }).map { ($0.key, $0.value) }
    }

    static func engineKind(_ kind: TaskKind) -> TransferJob.Kind {
        switch kind {
        case .data: .data
        case .download: .download
        case .upload: .upload
        case .webSocket: .webSocket
        case .stream: .stream
        }
    }

    /// `connectionProxyDictionary` → a libcurl proxy URL for this request's scheme, and its exceptions.
    static func proxy(for url: String, _ dictionary: ProxyDictionary?) -> (String?, String?) {
        guard let dictionary else { return (nil, nil) }
        let exceptions = dictionary.ExceptionsList.map { $0.joined(separator: ",") }
        let isHTTPS = url.lowercased().hasPrefix("https:") || url.lowercased().hasPrefix("wss:")
        if isHTTPS, dictionary.HTTPSEnable == true, let host = dictionary.HTTPSProxy {
            return ("http://\(host):\(dictionary.HTTPSPort ?? 443)", exceptions)
        }
        if !isHTTPS, dictionary.HTTPEnable == true, let host = dictionary.HTTPProxy {
            return ("http://\(host):\(dictionary.HTTPPort ?? 80)", exceptions)
        }
        if dictionary.SOCKSEnable == true, let host = dictionary.SOCKSProxy {
            return ("socks5h://\(host):\(dictionary.SOCKSPort ?? 1080)", exceptions)
        }
        return (nil, nil)
    }

    /// The SOCKS login, when the proxy chosen for the request is the dictionary's SOCKS proxy (an HTTP
    /// proxy's credentials come from credential storage, on its 407).
    static func socksLogin(for proxy: String?, _ dictionary: ProxyDictionary) -> ProxyLogin? {
        guard proxy?.hasPrefix("socks5h://") == true, let user = dictionary.SOCKSUser, let password = dictionary.SOCKSPassword
        else { return nil }
        return ProxyLogin(user: user, password: password)
    }
}
