import Crypto
import Foundation

/// Maps bearer tokens to principals, comparing in constant time.
///
/// Tokens are kept only as SHA-256 digests; a presented token is hashed and compared against every
/// configured digest without an early exit, so timing reveals neither which token nor how much matched.
public struct TokenAuthenticator: Sendable {
    private let entries: [(digest: [UInt8], principal: Principal)]

    /// - Parameter tokens: token → principal.
    public init(tokens: [String: Principal]) {
        self.entries = tokens.map { (Array(SHA256.hash(data: Data($0.key.utf8))), $0.value) }
    }

    /// The principal for an `Authorization` header value, or a problem saying what is wrong.
    public func authenticate(authorization: String?) -> Result<Principal, Problem> {
        guard let authorization, !authorization.isEmpty else {
            return .failure(.unauthorized("this endpoint needs Authorization: Bearer <token>"))
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return .failure(.unauthorized("the Authorization header must use the Bearer scheme"))
        }
        let presented = Array(SHA256.hash(data: Array(parts[1].utf8)))
        var found: Principal?
        for entry in entries {
            var difference: UInt8 = 0
            for index in 0..<presented.count { difference |= presented[index] ^ entry.digest[index] }
            if difference == 0 { found = entry.principal }
        }
        guard let found else { return .failure(.unauthorized("the bearer token is not valid")) }
        return .success(found)
    }
}
