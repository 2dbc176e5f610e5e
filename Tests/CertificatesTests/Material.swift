import Foundation

/// Certificates, keys and PKCS#12 files made by the `openssl` command line once per test run (keys are random,
/// so nothing is checked in), then held in memory.
///
/// - `ec`: self-signed P-256 whose subject needs RFC 2253 escaping (a comma, a non-ASCII letter), with DNS,
///   wildcard, IPv4 and IPv6 names.
/// - `rsa`: self-signed RSA 2048, with a traditional ("BEGIN RSA PRIVATE KEY") copy of its key.
/// - `root` → `intermediate` → `leaf` (`localhost`, 127.0.0.1, ::1; serial 0xFF12, whose DER has a sign byte).
/// - `nosan`: `CN=localhost` with no subjectAltName.
struct Material: Sendable {
    static let passphrase = "correct-horse"
    static let shared = Result { try Material.generate() }

    var ecPEM = "", ecKey = ""
    var rsaPEM = "", rsaKey = "", rsaTraditionalKey = ""
    var rootPEM = "", rootKey = "", intermediatePEM = "", leafPEM = "", leafKey = "", leafEncryptedKey = ""
    var nosanPEM = "", nosanKey = ""
    /// leaf + key + intermediate + root: AES-256 (OpenSSL 3's default) and RC2-40/3DES (`-legacy`).
    var aesP12: [UInt8] = [], legacyP12: [UInt8] = []
    /// leaf + key with an empty password; leaf alone; key alone.
    var noPasswordP12: [UInt8] = [], certificateOnlyP12: [UInt8] = [], keyOnlyP12: [UInt8] = []

    private static let script = """
        ec="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        openssl req -x509 $ec -keyout ec.key -out ec.pem -days 30 -utf8 -subj "/C=FR/O=Example, Inc./OU=Équipe/CN=ec.example" \
          -addext "subjectAltName=DNS:ec.example,DNS:*.ec.example,IP:127.0.0.1,IP:2001:db8::1"
        openssl req -x509 -newkey rsa:2048 -nodes -keyout rsa.key -out rsa.pem -days 30 -subj "/CN=rsa.example" \
          -addext "subjectAltName=DNS:rsa.example,IP:::1"
        openssl rsa -in rsa.key -traditional -out rsa-traditional.key
        openssl req -x509 $ec -keyout root.key -out root.pem -days 30 -subj "/O=Test/CN=Test Root CA"
        openssl req -new $ec -keyout intermediate.key -out intermediate.csr -subj "/O=Test/CN=Test Intermediate CA"
        printf 'basicConstraints=critical,CA:TRUE,pathlen:0\\nkeyUsage=critical,keyCertSign,cRLSign\\n' > ca.ext
        openssl x509 -req -in intermediate.csr -CA root.pem -CAkey root.key -set_serial 0x1001 -days 30 -extfile ca.ext \
          -out intermediate.pem
        openssl req -new $ec -keyout leaf.key -out leaf.csr -subj "/CN=localhost"
        printf 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\\nbasicConstraints=CA:FALSE\\n' > leaf.ext
        openssl x509 -req -in leaf.csr -CA intermediate.pem -CAkey intermediate.key -set_serial 0xFF12 -days 30 \
          -extfile leaf.ext -out leaf.pem
        openssl pkey -in leaf.key -aes256 -passout pass:\(passphrase) -out leaf-encrypted.key
        openssl req -x509 $ec -keyout nosan.key -out nosan.pem -days 30 -subj "/CN=localhost"
        cat intermediate.pem root.pem > cas.pem
        openssl pkcs12 -export -inkey leaf.key -in leaf.pem -certfile cas.pem -passout pass:\(passphrase) -out aes.p12
        openssl pkcs12 -export -legacy -inkey leaf.key -in leaf.pem -certfile cas.pem -passout pass:\(passphrase) \
          -out legacy.p12
        openssl pkcs12 -export -inkey leaf.key -in leaf.pem -passout pass: -out nopass.p12
        openssl pkcs12 -export -nokeys -in leaf.pem -passout pass:\(passphrase) -out certonly.p12
        openssl pkcs12 -export -nocerts -inkey leaf.key -passout pass:\(passphrase) -out keyonly.p12
        """

    private static func generate() throws -> Material {
        try Scratch.withDirectory { scratch in
            try scratch.sh(script)
            var material = Material()
            material.ecPEM = try scratch.text("ec.pem")
            material.ecKey = try scratch.text("ec.key")
            material.rsaPEM = try scratch.text("rsa.pem")
            material.rsaKey = try scratch.text("rsa.key")
            material.rsaTraditionalKey = try scratch.text("rsa-traditional.key")
            material.rootPEM = try scratch.text("root.pem")
            material.rootKey = try scratch.text("root.key")
            material.intermediatePEM = try scratch.text("intermediate.pem")
            material.leafPEM = try scratch.text("leaf.pem")
            material.leafKey = try scratch.text("leaf.key")
            material.leafEncryptedKey = try scratch.text("leaf-encrypted.key")
            material.nosanPEM = try scratch.text("nosan.pem")
            material.nosanKey = try scratch.text("nosan.key")
            material.aesP12 = try scratch.bytes("aes.p12")
            material.legacyP12 = try scratch.bytes("legacy.p12")
            material.noPasswordP12 = try scratch.bytes("nopass.p12")
            material.certificateOnlyP12 = try scratch.bytes("certonly.p12")
            material.keyOnlyP12 = try scratch.bytes("keyonly.p12")
            return material
        }
    }
}
