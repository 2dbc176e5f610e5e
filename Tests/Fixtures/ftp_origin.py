#!/usr/bin/env python3
"""An FTP origin on loopback, for tests of libcurl's ftp: and ftps: through the service.

    ftp_origin.py --root DIR [--tls-directory DIR] --port-file FILE [--exit-on-stdin-eof]

Started by TestSupport's `FTPOrigin` with the test venv's Python, where pyftpdlib and pyOpenSSL (its TLS) are
installed. It serves DIR read-only to the anonymous user (what libcurl logs in as when a URL names no user),
on 127.0.0.1 and a port the OS chooses, and writes that port to FILE (atomically) once listening. Passive
data connections take ports from the OS too.

With --tls-directory it speaks FTPS the way libcurl's `ftps://` does: implicit TLS, the handshake first and
the 220 greeting inside it (pyftpdlib itself only speaks explicit TLS, `AUTH TLS` on a plain connection,
which libcurl uses for `ftp://` with CURLOPT_USE_SSL only). Control and data channels are TLS (`PBSZ 0`,
`PROT P`; plain commands and data are refused). The certificate is self-signed for IP 127.0.0.1, made with
`cryptography` at start, and written to DIR/cert.pem (its key to DIR/key.pem): trust it to verify the origin.

Exits when stdin closes (the launcher went away) or on SIGTERM.
"""
import argparse
import datetime
import ipaddress
import os
import signal
import sys

from fixture_process import when_stdin_closes

try:
    from pyftpdlib.authorizers import DummyAuthorizer
    from pyftpdlib.handlers import FTPHandler, TLS_FTPHandler
    from pyftpdlib.servers import FTPServer
except ImportError as error:
    print(f"ftp_origin.py: {error}: `make test-deps` installs pyftpdlib and pyOpenSSL into {sys.prefix}", file=sys.stderr)
    sys.exit(3)


def write_certificate(directory):
    """A self-signed certificate for IP 127.0.0.1 (one day), as cert.pem and key.pem in `directory`."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path = os.path.join(directory, "cert.pem")
    key_path = os.path.join(directory, "key.pem")
    with open(key_path, "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with open(cert_path, "wb") as file:
        file.write(certificate.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


class ImplicitTLSHandler(TLS_FTPHandler):
    """FTPS as libcurl's ftps:// speaks it: TLS from the first byte, the greeting once the handshake is done."""

    tls_control_required = True
    tls_data_required = True

    def handle(self):
        self.secure_connection(self.ssl_context)

    def handle_ssl_established(self):
        TLS_FTPHandler.handle(self)


def write_port(path, port):
    temporary = path + ".tmp"
    with open(temporary, "w") as file:
        file.write(f"{port}\n")
    os.replace(temporary, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--tls-directory")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    arguments = parser.parse_args()

    # The launcher may hand SIGTERM blocked (a cooperative thread's mask): unblock it, then end on it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))

    authorizer = DummyAuthorizer()
    authorizer.add_anonymous(arguments.root, perm="elr")  # list and read only
    if arguments.tls_directory:
        handler = ImplicitTLSHandler
        handler.certfile, handler.keyfile = write_certificate(arguments.tls_directory)
    else:
        handler = FTPHandler
    handler.authorizer = authorizer
    handler.banner = "ftp_origin.py ready"
    server = FTPServer(("127.0.0.1", 0), handler)
    write_port(arguments.port_file, server.socket.getsockname()[1])

    if arguments.exit_on_stdin_eof:
        when_stdin_closes(lambda: os._exit(0))
    server.serve_forever(handle_exit=False)


if __name__ == "__main__":
    main()
