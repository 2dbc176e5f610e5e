import Foundation
import HTTPCookies

/// A jar of 3,000 cookies over 50 domains (60 each: host-only and domain cookies, several paths, a
/// third Secure), then the selection for a request (`cookies(for:)` plus the `Cookie` header) timed over
/// requests to every domain, its subdomains and paths, on http and https. Prints ns per request: the
/// median of `rounds` rounds, and the fastest.
///
/// Usage: `swift run -c release CookieBenchmark [rounds] [requestsPerRound]` (defaults: 15, 20000).
@main
enum CookieBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let rounds = arguments.first ?? 15
        let requests = arguments.dropFirst().first ?? 20_000
        let suffixes = PublicSuffixList() ?? PublicSuffixList(text: "com\norg\nnet\n")
        var jar = CookieJar(publicSuffixes: suffixes)
        let now = Date()
        for site in 0..<50 {
            for index in 0..<60 {
                let host = index % 2 == 0 ? "site\(site).example\(site % 5).com" : "www.site\(site).example\(site % 5).com"
                let scheme = index % 3 == 0 ? "https" : "http"
                let path = ["/", "/app", "/app/api", "/static"][index % 4]
                var header = "c\(index)=value-\(site)-\(index); Path=\(path)"
                if index % 5 == 0 { header += "; Domain=site\(site).example\(site % 5).com" }
                if index % 3 == 0 { header += "; Secure" }
                if index % 7 == 0 { header += "; Max-Age=86400" }
                guard let cookie = SetCookie(header), let url = CookieURL("\(scheme)://\(host)\(path)") else { continue }
                jar.store(cookie, from: url, now: now)
            }
        }
        let targets = (0..<200).compactMap { index -> CookieURL? in
            let site = index % 50
            let host = [
                "site\(site).example\(site % 5).com", "www.site\(site).example\(site % 5).com", "a.b.site\(site).example\(site % 5).com",
            ][index % 3]
            return CookieURL("\(index % 2 == 0 ? "https" : "http")://\(host)\(["/", "/app/api/v1", "/static/x.css", "/other"][index % 4])")
        }
        var samples: [Double] = []
        var sent = 0
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            for request in 0..<requests {
                let cookies = jar.cookies(for: targets[request % targets.count], now: now)
                sent &+= CookieJar.header(for: cookies)?.utf8.count ?? 0
            }
            let elapsed = ContinuousClock.now - start
            let (seconds, attoseconds) = elapsed.components
            samples.append((Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(requests))
        }
        samples.sort()
        print("jar: \(jar.count) cookies over 50 sites; \(sent / (rounds * requests)) bytes of Cookie header per request on average")
        print(
            String(
                format: "cookie selection + header: %.0f ns per request (median of %d rounds of %d), fastest %.0f ns",
                samples[samples.count / 2], rounds, requests, samples[0]))
    }
}
