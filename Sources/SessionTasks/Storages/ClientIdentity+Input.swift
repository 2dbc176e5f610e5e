import Certificates
import Foundation
import JSONCodec
import TransferEngine
import TransferModels

extension ClientIdentity {
    /// The identity a client gave (in `POST /v1/credentials` or a challenge answer), checked with OpenSSL:
    /// a PKCS#12 bundle is opened with its passphrase and kept as PEM; a PEM key must belong to the first
    /// certificate. Bad input is a 422 naming `field`'s part at fault.
    static func make(_ input: IdentityInput, field: String) throws(RequestDecodingError) -> ClientIdentity {
        let input = try input.validated(field: field)
        if let pkcs12 = input.pkcs12, let bytes = Data(base64Encoded: pkcs12) {
            do {
                let opened = try Certificates.decodePKCS12(Array(bytes), passphrase: input.passphrase)
                return ClientIdentity(certificateChain: opened.certificateChainPEM, privateKey: opened.privateKeyPEM, passphrase: nil)
            } catch {
                throw .invalidValue("\(field).pkcs12", "\(error)")
            }
        }
        let chain = input.certificateChain ?? ""
        let key = input.privateKey ?? ""
        do {
            guard try Certificates.privateKeyMatches(certificatePEM: chain, privateKeyPEM: key, passphrase: input.passphrase) else {
                throw RequestDecodingError.invalidValue("\(field).privateKey", "is not the key of the first certificate of the chain")
            }
        } catch let error as RequestDecodingError {
            throw error
        } catch {
            throw .invalidValue("\(field).privateKey", "\(error)")
        }
        return ClientIdentity(certificateChain: chain, privateKey: key, passphrase: input.passphrase)
    }
}
