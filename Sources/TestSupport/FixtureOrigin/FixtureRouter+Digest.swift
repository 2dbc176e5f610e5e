import Crypto
internal import Foundation

extension FixtureRouter {
    /// `/digest-auth/{user}/{password}`: 200 when the request carries a valid RFC 7616 Digest response for
    /// those credentials (MD5, `qop=auth`, realm `fixture`), else 401 with a Digest challenge. The nonce is
    /// fixed: the route checks the computation, not replay protection.
    static func digestAuth(_ request: FixtureRequest, _ segments: [Substring]) -> FixtureResponse {
        let (user, password) = (pathSegment(segments[1]), pathSegment(segments[2]))
        let (realm, nonce) = ("fixture", "fixture-nonce-0123456789")
        let challenge = #"Digest realm="\#(realm)", nonce="\#(nonce)", qop="auth", algorithm=MD5"#
        guard let field = request.header("Authorization"), field.lowercased().hasPrefix("digest ") else {
            return .json(401, ["authenticated": false], headers: [("WWW-Authenticate", challenge)])
        }
        let parameters = Self.digestParameters(String(field.dropFirst(7)))
        let md5 = { (text: String) in Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        let ha1 = md5("\(user):\(realm):\(password)")
        let ha2 = md5("\(request.method):\(parameters["uri"] ?? "")")
        let expected = md5(
            "\(ha1):\(nonce):\(parameters["nc"] ?? ""):\(parameters["cnonce"] ?? ""):\(parameters["qop"] ?? ""):\(ha2)")
        guard parameters["username"] == user, parameters["nonce"] == nonce, parameters["response"] == expected else {
            return .json(401, ["authenticated": false], headers: [("WWW-Authenticate", challenge)])
        }
        return .json(200, ["authenticated": true, "user": user, "scheme": "digest"])
    }

    /// `/any-auth/{user}/{password}`: offers Digest first, then Basic, and takes either.
    static func anyAuth(_ request: FixtureRequest, _ segments: [Substring]) -> FixtureResponse {
        let basic = basicAuth(request, segments)
        if basic.status == 200 { return basic }
        var digest = digestAuth(request, segments)
        if digest.status == 401 { digest.headers.append(("WWW-Authenticate", #"Basic realm="fixture""#)) }
        return digest
    }

    /// `/negotiate-auth/{user}/{password}`: offers Negotiate (which it never accepts: no KDC here), then
    /// Basic, and takes a valid Basic answer.
    static func negotiateAuth(_ request: FixtureRequest, _ segments: [Substring]) -> FixtureResponse {
        var basic = basicAuth(request, segments)
        if basic.status == 401 { basic.headers.insert(("WWW-Authenticate", "Negotiate"), at: 0) }
        return basic
    }

    /// `name=value` and `name="value"` pairs of an authorization field, names lowercased.
    static func digestParameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while let equals = rest.firstIndex(of: "=") {  // bounded: every turn consumes up to the next comma
            let name = rest[..<equals].trimmingCharacters(in: CharacterSet(charactersIn: " ,")).lowercased()
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                let body = rest.dropFirst()
                let close = body.firstIndex(of: "\"") ?? body.endIndex
                value = body[..<close]
                rest = close < body.endIndex ? body[body.index(after: close)...] : body[body.endIndex...]
            } else {
                let comma = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<comma]
                rest = rest[comma...]
            }
            result[name] = value.trimmingCharacters(in: .whitespaces)
            if let comma = rest.firstIndex(of: ",") { rest = rest[rest.index(after: comma)...] } else { break }
        }
        return result
    }
}
