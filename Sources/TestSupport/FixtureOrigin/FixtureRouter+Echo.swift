internal import Foundation

extension FixtureRouter {
    /// `/echo` and `/upload`: what the origin received. Duplicate header fields are joined with ", ".
    static func echo(_ request: FixtureRequest, body: FixtureBody, includeBody: Bool) -> FixtureResponse {
        var headers: [String: String] = [:]
        for (name, value) in request.headers {
            let key = name.lowercased()
            headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        }
        var object: [String: Any] = [
            "method": request.method, "path": request.path, "query": request.query, "headers": headers,
            "bodySize": body.size, "bodySHA256": body.sha256,
        ]
        if includeBody, let bytes = body.bytes { object["bodyBase64"] = Data(bytes).base64EncodedString() }
        return .json(200, object)
    }

    /// `/cookies/set?a=1&b=2` sets each pair for `Path=/`; `/cookies/delete?a` expires `a`; `/cookies` answers
    /// `{"cookies": {name: value}, "header": raw}` from the `Cookie` field received (`header` absent if none).
    static func cookies(_ request: FixtureRequest) -> FixtureResponse {
        let segments = request.segments
        switch segments.count == 2 ? segments[1] : "" {
        case "set":
            let pairs = request.parameters
            let headers = pairs.map { ("Set-Cookie", "\($0.name)=\($0.value); Path=/") }
            return .json(200, ["cookies": Dictionary(pairs, uniquingKeysWith: { $1 })], headers: headers)
        case "delete":
            let names = request.parameters.map(\.name)
            let headers = names.map { ("Set-Cookie", "\($0)=; Path=/; Max-Age=0") }
            return .json(200, ["deleted": names], headers: headers)
        case "" where segments.count == 1:
            let raw = request.headers(named: "Cookie").joined(separator: "; ")
            var cookies: [String: String] = [:]
            for pair in raw.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                if !name.isEmpty { cookies[name] = parts.count > 1 ? String(parts[1]) : "" }
            }
            var object: [String: Any] = ["cookies": cookies]
            if request.header("Cookie") != nil { object["header"] = raw }
            return .json(200, object)
        default:
            return .text(404, "no route for \(request.path)\n")
        }
    }

    /// A path segment percent-decoded (as given when it does not decode).
    static func pathSegment(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }

    /// `/basic-auth/{user}/{password}`: 200 with those credentials, else 401 with a Basic challenge.
    static func basicAuth(_ request: FixtureRequest, _ segments: [Substring]) -> FixtureResponse {
        let user = pathSegment(segments[1])
        let expected = "\(user):\(pathSegment(segments[2]))"
        let field = request.header("Authorization") ?? ""
        let parts = field.split(separator: " ", maxSplits: 1)
        if parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            String(decoding: decoded, as: UTF8.self) == expected
        {
            return .json(200, ["authenticated": true, "user": user])
        }
        return .json(
            401, ["authenticated": false], headers: [("WWW-Authenticate", #"Basic realm="fixture""#)])
    }

    /// `/cache/{maxAge}`: fresh for `maxAge` s, with an `ETag` (and `Last-Modified`) to revalidate against.
    static func cache(_ request: FixtureRequest, maxAge maxAgeText: Substring) -> FixtureResponse {
        guard let maxAge = Int(maxAgeText), maxAge >= 0 else { return .text(400, "bad max-age\n") }
        let validators = [
            ("Cache-Control", "max-age=\(maxAge)"), ("ETag", "\"cache-\(maxAge)\""),
            ("Last-Modified", Self.fixedLastModified),
        ]
        let notModified: Bool
        if let condition = request.header("If-None-Match") {
            notModified = Self.weakMatch(condition, "\"cache-\(maxAge)\"")
        } else {
            notModified = request.header("If-Modified-Since") == Self.fixedLastModified
        }
        if notModified { return FixtureResponse(status: 304, headers: validators) }
        return .json(200, ["maxAge": maxAge], headers: validators)
    }

    /// `/proxy-auth/{user}/{password}`, asked through the origin as a proxy (absolute-form): 407 with a
    /// Basic `Proxy-Authenticate` (realm `proxy`) unless `Proxy-Authorization` carries those credentials.
    static func proxyAuth(_ request: FixtureRequest, _ segments: [Substring]) -> FixtureResponse {
        let expected = Data("\(pathSegment(segments[1])):\(pathSegment(segments[2]))".utf8).base64EncodedString()
        guard request.header("Proxy-Authorization") == "Basic \(expected)" else {
            return .json(407, ["authenticated": false], headers: [("Proxy-Authenticate", #"Basic realm="proxy""#)])
        }
        return .json(200, ["authenticated": true, "proxied": true])
    }

    /// `/cacheable/{name}?cc=&etag=&lastModified=&expires=&date=&vary=&size=&status=&stamp=1`: a response with
    /// exactly the caching fields asked for (`cc` → `Cache-Control`, `date` → `Date`, …), answering a
    /// matching `If-None-Match` (else `If-Modified-Since` equal to `lastModified`) with 304. With `stamp`,
    /// every answer (a 304 too) carries `X-Sent-At`, the origin's clock in milliseconds. The body is
    /// `/bytes/{size}` when `size` is given, else JSON naming the route and the request's value of each
    /// field `vary` names (so a test sees which variant it got).
    static func cacheable(_ request: FixtureRequest, name: Substring) -> FixtureResponse {
        var fields: [(String, String)] = []
        for (parameter, field) in [
            ("cc", "Cache-Control"), ("etag", "ETag"), ("lastModified", "Last-Modified"), ("expires", "Expires"), ("date", "Date"),
            ("vary", "Vary"),
        ] {
            if let value = request.parameter(parameter) { fields.append((field, value)) }
        }
        if request.parameter("stamp") != nil { fields.append(("X-Sent-At", String(Int64(Date().timeIntervalSince1970 * 1000)))) }
        let etag = request.parameter("etag")
        let lastModified = request.parameter("lastModified")
        let notModified: Bool
        if let condition = request.header("If-None-Match") {
            notModified = etag.map { Self.weakMatch(condition, $0) } ?? false
        } else {
            notModified = lastModified != nil && request.header("If-Modified-Since") == lastModified
        }
        if notModified { return FixtureResponse(status: 304, headers: fields) }
        let status = request.integer("status", default: 200)
        if let size = request.parameter("size").flatMap({ Int($0) }), size >= 0 {
            return FixtureResponse(
                status: status, headers: [("Content-Type", "application/octet-stream")] + fields,
                body: FixtureBytes.binary(count: size, seed: 0))
        }
        var varied: [String: String] = [:]
        for name in (request.parameter("vary") ?? "").split(separator: ",") {
            let field = name.trimmingCharacters(in: .whitespaces)
            varied[field.lowercased()] = request.header(field) ?? ""
        }
        return .json(status, ["name": String(name), "varied": varied], headers: fields)
    }

    /// `/headers-size/{n}`: `X-Pad-k` fields of at most 4,000 bytes each, so the head is about n bytes.
    static func headersSize(_ sizeText: Substring) -> FixtureResponse {
        guard let size = Int(sizeText), size >= 0, size <= 16 << 20 else { return .text(400, "bad size\n") }
        var response = FixtureResponse.text(200, "ok\n")
        var total = response.head(closing: false).count
        var index = 1
        while total < size {  // bounded: every field adds at least 13 bytes
            let overhead = "X-Pad-\(index): \r\n".utf8.count
            let length = max(1, min(4000, size - total - overhead))
            response.headers.append(("X-Pad-\(index)", String(repeating: "a", count: length)))
            total += overhead + length
            index += 1
        }
        return response
    }

    /// `/informational`: a `103 Early Hints` with a `Link` field, then the final 200.
    static func informational(
        _ request: FixtureRequest, on socket: FixtureSocket
    ) throws(FixtureSocketError) -> FixtureDisposition {
        let link = ("Link", "</style.css>; rel=preload; as=style")
        try socket.write(FixtureResponse.head(status: 103, headers: [link]))
        return try socket.send(.text(200, "final\n", headers: [link]), to: request)
    }
}
