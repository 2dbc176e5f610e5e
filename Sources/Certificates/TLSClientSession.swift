internal import COpenSSL
import Foundation

/// A TLS client over a socket someone else connected and owns (OpenSSL's `SSL` on its descriptor): a stream
/// task's `startSecureConnection`, which upgrades a connection after plain bytes (as STARTTLS does). libcurl
/// cannot start TLS on a connection it handed over, so OpenSSL runs it here, directly.
///
/// Non-blocking: each call does what the socket allows now and says what it waits for (`wantRead`,
/// `wantWrite`); the owner polls the socket and calls again. Trust is evaluated once the handshake is done
/// and before any byte is sent, by `Certificates.peerTrust` against `Settings.anchorsFile` with the host
/// name — the evaluation a server-trust challenge shows — so a refusal carries URLSession's -120x code.
/// Confined to one thread at a time; `close()` frees the `SSL` (the socket stays the owner's).
public final class TLSClientSession {
    public struct Settings: Sendable {
        /// The server's name: sent as SNI (unless an IP literal, RFC 6066 §3) and matched against its certificate.
        public var host: String
        /// The PEM file of trusted certificates (the session's bundle: the system's plus its anchors).
        public var anchorsFile: String
        /// `TLSv10` … `TLSv13`, as a session's `tlsMinimumSupportedProtocolVersion` names them.
        public var minimumVersion: String
        public var maximumVersion: String
        /// `sha256//<base64 SPKI digest>` entries joined by `;` (libcurl's `CURLOPT_PINNEDPUBLICKEY` form).
        public var pinnedPublicKeys: String?
        /// A client identity, offered if the server asks: certificate chain (leaf first) and key, PEM.
        public var identity: (certificateChain: String, privateKey: String, passphrase: String?)?

        public init(host: String, anchorsFile: String, minimumVersion: String = "TLSv12", maximumVersion: String = "TLSv13") {
            self.host = host
            self.anchorsFile = anchorsFile
            self.minimumVersion = minimumVersion
            self.maximumVersion = maximumVersion
        }
    }

    public enum Progress: Sendable, Equatable {
        case done
        case wantRead
        case wantWrite
    }

    /// What a read or a write did.
    public enum Transfer: Sendable, Equatable {
        case bytes(Int)
        /// The peer ended its side (close_notify, or TCP's end without one).
        case closed
        case wantRead
        case wantWrite
    }

    /// Why the session failed: the server was not trusted (`trust` says how, its `urlErrorCode` the code),
    /// or the handshake or a record failed (`trust` nil).
    public struct Failure: Error, Sendable {
        public var message: String
        public var trust: PeerTrust?

        public init(message: String, trust: PeerTrust?) {
            self.message = message
            self.trust = trust
        }
    }

    private let context: OpaquePointer
    private let ssl: OpaquePointer
    private let settings: Settings
    private var isClosed = false

    /// Prepares a client session on `socket`; the handshake runs in `handshake()`.
    public init(socket: Int32, settings: Settings) throws(Failure) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Self.failure("SSL_CTX_new") }
        self.context = context
        self.settings = settings
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw Self.failure("SSL_new")
        }
        self.ssl = ssl
        do {
            try configure(socket: socket)
        } catch {
            close()
            throw error
        }
    }

    deinit { assert(isClosed, "a TLSClientSession was not closed") }

    private func configure(socket: Int32) throws(Failure) {
        // Verification is ours, after the handshake (`evaluateTrust`): OpenSSL's would end the handshake with
        // an alert and a bare verify code, where a URLSession error needs the whole evaluation.
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        cossl_ctx_set_partial_write_modes(context)
        cossl_ctx_ignore_unexpected_eof(context)
        guard cossl_ctx_set_min_proto_version(context, Self.version(settings.minimumVersion)) == 1,
            cossl_ctx_set_max_proto_version(context, Self.version(settings.maximumVersion)) == 1
        else { throw Self.failure("the TLS versions \(settings.minimumVersion)–\(settings.maximumVersion)") }
        if let identity = settings.identity { try useIdentity(identity) }
        guard SSL_set_fd(ssl, socket) == 1 else { throw Self.failure("SSL_set_fd") }
        let name = Self.bareHost(settings.host)
        if !Certificates.isIPAddress(name), cossl_set_server_name(ssl, name) != 1 { throw Self.failure("SNI \(name)") }
        SSL_set_connect_state(ssl)
    }

    private func useIdentity(_ identity: (certificateChain: String, privateKey: String, passphrase: String?)) throws(Failure) {
        do {
            let certificates = try Certificates.allX509(pem: identity.certificateChain)
            defer {
                for certificate in certificates { X509_free(certificate) }
            }
            let key = try Certificates.privateKey(pem: identity.privateKey, passphrase: identity.passphrase)
            defer { EVP_PKEY_free(key) }
            guard let leaf = certificates.first, SSL_CTX_use_certificate(context, leaf) == 1,
                SSL_CTX_use_PrivateKey(context, key) == 1
            else { throw Self.failure("the client identity") }
            for other in certificates.dropFirst() where cossl_ctx_add1_chain_cert(context, other) != 1 {
                throw Self.failure("the client identity's chain")
            }
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(message: "the client identity: \(error)", trust: nil)
        }
    }

    /// Advances the handshake; once done, the server's chain and name have been evaluated.
    /// - Throws: `Failure` (with `trust` when the server is not trusted).
    public func handshake() throws(Failure) -> Progress {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            try evaluateTrust()
            return .done
        }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        default: throw Self.failure("the TLS handshake with \(settings.host)")
        }
    }

    /// Reads decrypted bytes into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Transfer {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .bytes(0) }
        ERR_clear_error()
        var count = 0
        if SSL_read_ex(ssl, base, buffer.count, &count) == 1 { return .bytes(count) }
        return try outcome(of: 0, "reading")
    }

    /// Writes what it can of `bytes` (partial writes are on).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Transfer {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .bytes(0) }
        ERR_clear_error()
        var count = 0
        if SSL_write_ex(ssl, base, bytes.count, &count) == 1 { return .bytes(count) }
        return try outcome(of: 0, "writing")
    }

    /// Sends close_notify (the write side's end); `.done` once it is on the wire. The peer's close_notify is
    /// not waited for: its end is read as any end is.
    public func shutdown() throws(Failure) -> Progress {
        ERR_clear_error()
        let result = SSL_shutdown(ssl)
        if result >= 0 { return .done }  // 0: ours sent, the peer's not yet read
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        default: throw Self.failure("sending close_notify")
        }
    }

    /// Decrypted bytes OpenSSL holds that `poll` on the socket cannot show.
    public var hasBufferedBytes: Bool { SSL_pending(ssl) > 0 }

    /// Frees the session; the socket is left open (SSL_set_fd's BIO does not close it).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    private func outcome(of result: Int32, _ doing: String) throws(Failure) -> Transfer {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN:
            ERR_clear_error()
            return .closed
        case SSL_ERROR_SYSCALL where ERR_peek_error() == 0 && errno == 0:
            return .closed
        default: throw Self.failure("\(doing) over TLS")
        }
    }

    /// The server's chain against the anchors and its name, then the session's pins on its key.
    private func evaluateTrust() throws(Failure) {
        let trust = Certificates.peerTrust(ssl: UnsafeMutableRawPointer(ssl), host: settings.host, anchorsFile: settings.anchorsFile)
        if trust.urlErrorCode != nil {
            let reason = trust.hostMatches ? trust.verifyMessage : "the certificate does not name \(settings.host)"
            throw Failure(message: "the server's certificate is not trusted: \(reason)", trust: trust)
        }
        guard let pins = settings.pinnedPublicKeys else { return }
        let accepted = pins.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let key = trust.chain.first?.spkiSha256, accepted.contains("sha256//\(key)") else {
            var pinned = trust
            pinned.verifyMessage = "the server's public key matches none of the session's pins"
            throw Failure(message: pinned.verifyMessage, trust: pinned)
        }
    }

    private static func failure(_ what: String) -> Failure {
        Failure(message: "\(what): \(OpenSSL.drainErrors())", trust: nil)
    }

    private static func version(_ name: String) -> Int32 {
        switch name {
        case "TLSv10": TLS1_VERSION
        case "TLSv11": TLS1_1_VERSION
        case "TLSv12": TLS1_2_VERSION
        default: TLS1_3_VERSION
        }
    }

    private static func bareHost(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}

@available(*, unavailable) extension TLSClientSession: Sendable {}
