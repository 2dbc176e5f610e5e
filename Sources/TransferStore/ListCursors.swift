import Crypto
import Foundation

/// The `?after=` cursors of list endpoints: a position in one list (a row id, an index), sealed with
/// AES-256-GCM under a key derived from the store's secret key, with the tenant and the list as
/// associated data.
///
/// A cursor therefore shows nothing (row ids are global: in clear they would tell a tenant how much the
/// others create), and opens only for the tenant and the list that were given it: any other, and any
/// altered or made-up string, opens to nil.
public struct ListCursors: Sendable {
    /// The derived key's bytes (`SymmetricKey` is not `Sendable`).
    private let keyBytes: Data

    init(secrets: SecretBox) {
        keyBytes = secrets.derivedKey(purpose: "urlsessiond list cursor v1").withUnsafeBytes { Data($0) }
    }

    /// The length of every cursor: base64url of a 12-byte nonce, the 8-byte position and a 16-byte tag.
    public static let length = 48
    /// What a cursor looks like (`openapi.yaml` states it).
    public static let pattern = "^[A-Za-z0-9_-]{48}$"

    /// The cursor of `position` in `list` (e.g. the request's path) for `tenant`.
    public func cursor(position: Int64, tenant: String, list: String) throws -> String {
        let bytes = withUnsafeBytes(of: position.bigEndian) { Data($0) }
        let sealed = try AES.GCM.seal(bytes, using: SymmetricKey(data: keyBytes), authenticating: Self.binding(tenant, list))
        guard let combined = sealed.combined else { throw CryptoKitError.incorrectParameterSize }
        return TransferStore.base64URL(combined)
    }

    /// The position a cursor of this service gave `tenant` for `list`; nil for anything else.
    public func position(of cursor: String, tenant: String, list: String) -> Int64? {
        guard cursor.utf8.count == Self.length, let combined = TransferStore.data(base64URL: Substring(cursor)),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let bytes = try? AES.GCM.open(box, using: SymmetricKey(data: keyBytes), authenticating: Self.binding(tenant, list)),
            bytes.count == 8
        else { return nil }
        let position = bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return position >= 0 ? position : nil
    }

    /// Tenant and list, unambiguously joined (a tenant name cannot hold a NUL).
    private static func binding(_ tenant: String, _ list: String) -> Data {
        Data((tenant + "\u{0}" + list).utf8)
    }
}

extension TransferStore {
    /// Seals and opens list cursors (see `ListCursors`).
    public var listCursors: ListCursors { ListCursors(secrets: secrets) }
}
