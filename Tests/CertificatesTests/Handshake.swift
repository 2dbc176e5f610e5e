import COpenSSL
import Certificates
import Foundation

/// A real TLS handshake between an OpenSSL client and server in this process, over an in-memory BIO pair (no
/// sockets, no ports), so `Certificates.peerTrust` reads the same `SSL *` state libcurl would hand it.
/// The client verifies with SSL_VERIFY_NONE, as the service does when it evaluates trust itself: the
/// handshake completes and the result is left in SSL_get_verify_result.
enum Handshake {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to a server presenting `serverChainPEM` (leaf first) with `serverKeyPEM`, the client trusting
    /// only `trustedPEM` (nothing when nil) and verifying at `time` (now when nil), then returns
    /// `evaluate(ssl)` for the client's `SSL *`.
    static func connect<T>(
        serverChainPEM: String, serverKeyPEM: String, trustedPEM: String?, time: Date? = nil,
        _ evaluate: (UnsafeMutableRawPointer) -> T
    ) throws -> T {
        try Scratch.withDirectory { scratch in
            try scratch.write("chain.pem", serverChainPEM)
            try scratch.write("key.pem", serverKeyPEM)
            guard let serverContext = SSL_CTX_new(TLS_server_method()), let clientContext = SSL_CTX_new(TLS_client_method()) else {
                throw Failed(description: "SSL_CTX_new")
            }
            defer {
                SSL_CTX_free(serverContext)
                SSL_CTX_free(clientContext)
            }
            guard SSL_CTX_use_certificate_chain_file(serverContext, scratch.path("chain.pem")) == 1,
                SSL_CTX_use_PrivateKey_file(serverContext, scratch.path("key.pem"), SSL_FILETYPE_PEM) == 1
            else { throw Failed(description: "the server's certificate or key") }
            SSL_CTX_set_verify(clientContext, SSL_VERIFY_NONE, nil)
            if let trustedPEM {
                try scratch.write("trusted.pem", trustedPEM)
                guard SSL_CTX_load_verify_locations(clientContext, scratch.path("trusted.pem"), nil) == 1 else {
                    throw Failed(description: "SSL_CTX_load_verify_locations")
                }
            }
            guard let client = SSL_new(clientContext), let server = SSL_new(serverContext) else { throw Failed(description: "SSL_new") }
            defer {
                SSL_free(client)
                SSL_free(server)
            }
            if let time { X509_VERIFY_PARAM_set_time(SSL_get0_param(client), time_t(time.timeIntervalSince1970)) }
            var clientEnd: OpaquePointer?
            var serverEnd: OpaquePointer?
            guard BIO_new_bio_pair(&clientEnd, 0, &serverEnd, 0) == 1 else { throw Failed(description: "BIO_new_bio_pair") }
            SSL_set_bio(client, clientEnd, clientEnd)
            SSL_set_bio(server, serverEnd, serverEnd)
            SSL_set_connect_state(client)
            SSL_set_accept_state(server)
            var (clientDone, serverDone) = (false, false)
            for _ in 0..<20 where !(clientDone && serverDone) {
                clientDone = clientDone || SSL_do_handshake(client) == 1
                serverDone = serverDone || SSL_do_handshake(server) == 1
            }
            guard clientDone, serverDone else {
                var reason = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(ERR_get_error(), &reason, reason.count)
                ERR_clear_error()
                throw Failed(
                    description: "handshake: \(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
            }
            return evaluate(UnsafeMutableRawPointer(client))
        }
    }
}
