public import Crypto
public import Foundation

/// Seals secrets at rest (webhook secrets, credentials, stored answers) with AES-256-GCM.
///
/// The key comes from `URLSESSIOND_SECRET_KEY` or `<data>/secret.key`; losing it makes sealed values
/// unreadable, never readable by someone else.
public struct SecretBox: Sendable {
    /// The raw key bytes (`SymmetricKey` is not `Sendable`; one is made per use, which is cheap).
    private let keyBytes: Data

    public init(key: SymmetricKey) { self.keyBytes = key.withUnsafeBytes { Data($0) } }

    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// `nonce ‖ ciphertext ‖ tag`.
    public func seal(_ plaintext: some DataProtocol) throws -> Data {
        guard let combined = try AES.GCM.seal(plaintext, using: key).combined else {
            throw CryptoKitError.incorrectParameterSize
        }
        return combined
    }

    /// A key for one `purpose` (e.g. signing resume data), derived from this box's key with HKDF: the
    /// same secret never serves two uses.
    public func derivedKey(purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data(purpose.utf8), outputByteCount: 32)
    }

    public func open(_ sealed: Data) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key)
    }

    /// Reads the 32-byte key from `base64` text, or from `file` (creating it, mode 0600, when absent).
    public static func loadKey(base64: String?, file: URL) throws -> SymmetricKey {
        if let base64 {
            guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32 else {
                throw SecretKeyError(detail: "URLSESSIOND_SECRET_KEY must be base64 of 32 bytes")
            }
            return SymmetricKey(data: data)
        }
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32 else {
                throw SecretKeyError(detail: "\(file.path) must hold base64 of 32 bytes")
            }
            return SymmetricKey(data: data)
        }
        let key = SymmetricKey(size: .bits256)
        let text = key.withUnsafeBytes { Data($0).base64EncodedString() } + "\n"
        try FileCreation.writeExclusive(Data(text.utf8), to: file, mode: 0o600)
        return key
    }
}

public struct SecretKeyError: Error, CustomStringConvertible {
    public var detail: String
    public var description: String { detail }
}
