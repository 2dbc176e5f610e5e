internal import COpenSSL

/// The little of OpenSSL's plumbing every part of this module needs: memory BIOs, the thread's error queue,
/// DER encoding and X.509 stacks. OpenSSL results are checked here rather than force-unwrapped, since an
/// allocation or an encoder can fail.
enum OpenSSL {
    /// The thread's queued OpenSSL errors as one line, emptying the queue, so one failure's reasons
    /// are not reported again by the next call on this thread.
    static func drainErrors() -> String {
        var reasons: [String] = []
        while true {
            var data: UnsafePointer<CChar>?
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            // The data says which algorithm or input was meant ("Algorithm (RC2-40-CBC : 0)").
            let detail = data.flatMap { flags & ERR_TXT_STRING != 0 ? String(cString: $0) : nil } ?? ""
            reasons.append(errorText(code) + (detail.isEmpty ? "" : " (\(detail))"))
        }
        return reasons.isEmpty ? "no reason given by OpenSSL" : reasons.joined(separator: "; ")
    }

    static func errorText(_ code: UInt) -> String {
        if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs `body` with a read-only memory BIO over `bytes` (OpenSSL reads it in place, so it lives only as long
    /// as the call). No bytes give an empty BIO: BIO_new_mem_buf refuses the NULL an empty array may have.
    static func withReadBIO<T>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(CertificateError) -> T) throws(CertificateError) -> T {
        let result: Result<T, CertificateError> = bytes.withUnsafeBytes { raw in
            guard let count = Int32(exactly: raw.count) else { return .failure(.internalFailure("input over 2 GiB")) }
            let bio = raw.baseAddress.map { BIO_new_mem_buf($0, count) } ?? BIO_new(BIO_s_mem())
            guard let bio else {
                return .failure(.internalFailure("BIO_new_mem_buf: \(drainErrors())"))
            }
            defer { BIO_free(bio) }
            do throws(CertificateError) { return .success(try body(bio)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Runs `write` against a fresh memory BIO and returns what it wrote as text (PEM, a name, ...).
    static func writtenText(_ what: String, _ write: (OpaquePointer) -> Bool) throws(CertificateError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .internalFailure("BIO_new: \(drainErrors())") }
        defer { BIO_free(bio) }
        guard write(bio) else { throw .internalFailure("\(what): \(drainErrors())") }
        var data: UnsafePointer<CChar>?
        let length = cossl_bio_mem_contents(bio, &data)
        guard let data, length > 0 else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// DER through one of OpenSSL's `i2d_*` functions, asked first for the length so the buffer is Swift's own
    /// (OpenSSL allocating it would need OPENSSL_free, a macro).
    static func der(_ what: String, _ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32)
        throws(CertificateError) -> [UInt8]
    {
        let length = encode(nil)
        guard length > 0 else { throw .internalFailure("\(what): \(drainErrors())") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return encode(&cursor)
        }
        guard written == length else { throw .internalFailure("\(what): \(drainErrors())") }
        return bytes
    }

    /// SHA-256 through EVP (the low-level SHA256_* calls are deprecated in OpenSSL 3).
    static func sha256(_ bytes: [UInt8]) throws(CertificateError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var size: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in EVP_Digest(raw.baseAddress, raw.count, &digest, &size, EVP_sha256(), nil) }
        guard ok == 1, size == 32 else { throw .internalFailure("EVP_Digest: \(drainErrors())") }
        return Array(digest.prefix(Int(size)))
    }

    /// `text` as a C string, or NULL when nil: OpenSSL tells "no passphrase" from "empty passphrase".
    static func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString(body)
    }

    /// The certificates of a `STACK_OF(X509)` in order, borrowed (the stack keeps ownership).
    static func certificates(in stack: OpaquePointer?) -> [OpaquePointer] {
        guard let stack else { return [] }
        return (0..<cossl_x509_stack_count(stack)).compactMap { cossl_x509_stack_value(stack, $0) }
    }
}

extension [UInt8] {
    /// Lowercase hex, the form `sha256` and most tools compare fingerprints in.
    var lowercaseHex: String { map { byte in String(byte, radix: 16).leftPadded(to: 2) }.joined() }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
