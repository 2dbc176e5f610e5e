import Foundation

/// The Public Suffix List (publicsuffix.org): the domains under which anyone may register names
/// (`com`, `co.uk`, `github.io`, …). A cookie may not be set for one of them (RFC 6265 §5.3 step 5),
/// or every site under `co.uk` would share it.
///
/// Read from the list Debian's `publicsuffix` package keeps current (`/usr/share/publicsuffix`), the
/// same data libcurl's libpsl uses, parsed here so that only the Curl module links C.
public struct PublicSuffixList: Sendable {
    /// The system's list.
    public static let defaultPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    private var rules: Set<String> = []
    private var wildcards: Set<String> = []  // `*.ck` is kept as `ck`
    private var exceptions: Set<String> = []  // `!www.ck` is kept as `www.ck`

    /// Parses the list's text: one rule a line, `//` comments, `*.` wildcards and `!` exceptions.
    public init(text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            let rule = line.prefix { !$0.isWhitespace }.lowercased()
            guard !rule.isEmpty, !rule.hasPrefix("//") else { continue }
            if rule.hasPrefix("!") {
                exceptions.insert(String(rule.dropFirst()))
            } else if rule.hasPrefix("*.") {
                wildcards.insert(String(rule.dropFirst(2)))
            } else {
                rules.insert(rule)
            }
        }
    }

    /// The list at `path`; nil when it cannot be read.
    public init?(contentsOf path: String = Self.defaultPath) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        self.init(text: text)
    }

    /// The registrable domain of `host` (its public suffix and one label more: `bbc.co.uk` for
    /// `www.bbc.co.uk`), the "site" cookies are first-party to; the host itself when it is a public
    /// suffix or an IP address.
    public func registrableDomain(of host: String) -> String {
        guard !host.contains(":"), !host.allSatisfy({ $0.isNumber || $0 == "." }) else { return host }
        var labels = host.split(separator: ".").map(String.init)
        var registrable = host
        while labels.count > 1 {
            let suffix = labels.dropFirst().joined(separator: ".")
            if isPublicSuffix(suffix) { return labels.joined(separator: ".") }
            labels.removeFirst()
            registrable = labels.joined(separator: ".")
        }
        return registrable
    }

    /// Whether `domain` (lowercased, no leading or trailing dot) is itself a public suffix. Single labels
    /// always are (the list's implicit `*` rule).
    public func isPublicSuffix(_ domain: String) -> Bool {
        guard !exceptions.contains(domain) else { return false }
        guard let dot = domain.firstIndex(of: ".") else { return true }
        if rules.contains(domain) { return true }
        return wildcards.contains(String(domain[domain.index(after: dot)...]))
    }
}
