#!/usr/bin/env python3
"""An HTTP/1.1 origin that speaks the real NTLM handshake, for tests of libcurl's CURLAUTH_NTLM.

    NTLM_USER_FILE=users.txt ntlm_origin.py [--also-basic]

Started by TestSupport's `NTLMOrigin` with the test venv's Python (pyspnego installed). The NTLM acceptor is
pyspnego's pure-Python one: it needs no Windows, no Samba and no MD4 from OpenSSL (it carries its own MD4),
and checks the type-3 message against the users in NTLM_USER_FILE, lines `DOMAIN:USER:PASSWORD`.

Binds 127.0.0.1 on a port the OS chooses and prints that port (one line) on stdout once listening. Exits when
stdin closes (the launcher went away) or on SIGTERM.

NTLM authenticates a connection, not a request, so the state lives with the connection:
- no `Authorization: NTLM` on a connection not yet authenticated: 401, `WWW-Authenticate: NTLM` (and, with
  --also-basic, `WWW-Authenticate: Basic realm="ntlm-fixture"`, only offered: Basic credentials are never
  accepted, so a test can see which method a client picked);
- a type-1 (negotiate) message: 401, `WWW-Authenticate: NTLM <type-2 challenge>`;
- a type-3 (authenticate) message answering this connection's challenge: 200 with the JSON
  `{"user": "DOMAIN\\user", "path": "..."}`; the connection stays authenticated, later requests on it get 200
  without `Authorization`, as IIS does;
- a type-3 that does not verify (wrong password, unknown user, or no challenge pending on this connection):
  the first 401 again, a fresh handshake;
- a token that is not base64 or not an NTLM message: 400.
Every response has Content-Length; request bodies are read and dropped so keep-alive stays in step.
"""
import base64
import json
import signal
import struct
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from fixture_process import when_stdin_closes

try:
    import spnego
    from spnego.exceptions import SpnegoError
except ImportError:
    print(f"ntlm_origin.py: pyspnego is not installed in {sys.prefix}: `make test-deps` installs it", file=sys.stderr)
    sys.exit(3)

NTLM_SIGNATURE = b"NTLMSSP\x00"
NEGOTIATE, AUTHENTICATE = 1, 3


def new_acceptor():
    """A fresh NTLM acceptor; `use_ntlm` keeps pyspnego off GSSAPI/gss-ntlmssp, which a host may lack."""
    return spnego.server(protocol="ntlm", options=spnego.NegotiateOptions.use_ntlm)


def message_type(token):
    """The NTLM message type (1, 2 or 3) of a decoded token, or None when it is not an NTLM message."""
    if len(token) < 12 or not token.startswith(NTLM_SIGNATURE):
        return None
    return struct.unpack_from("<I", token, 8)[0]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the handshake's three requests share one connection
    server_version = "ntlm-origin"
    also_basic = False

    def setup(self):
        super().setup()
        self.acceptor = None  # the handshake in progress on this connection (after a type-1)
        self.user = None  # who authenticated this connection

    def respond(self):
        self.drop_body()
        scheme, _, token = self.headers.get("Authorization", "").strip().partition(" ")
        if scheme.lower() != "ntlm" or not token.strip():
            if self.user is not None:
                return self.send_user()
            return self.send_offer()
        try:
            raw = base64.b64decode(token.strip(), validate=True)
        except ValueError:
            return self.send(400, "text/plain", b"Authorization: NTLM carries no base64\n")
        kind = message_type(raw)
        if kind == NEGOTIATE:
            self.user = None
            self.acceptor = new_acceptor()
            try:
                challenge = base64.b64encode(self.acceptor.step(raw)).decode("ascii")
            except (SpnegoError, ValueError, struct.error) as error:
                self.acceptor = None
                return self.send(400, "text/plain", f"bad NTLM negotiate message: {error}\n".encode())
            return self.send(401, "text/plain", b"NTLM challenge\n", [("WWW-Authenticate", f"NTLM {challenge}")])
        if kind == AUTHENTICATE:
            return self.authenticate(raw)
        return self.send(400, "text/plain", b"not an NTLM negotiate or authenticate message\n")

    def authenticate(self, raw):
        """Checks a type-3 message against this connection's challenge; any failure restarts the handshake."""
        acceptor, self.acceptor = self.acceptor, None
        if acceptor is None:
            self.log_message("NTLM type-3 without a challenge on this connection")
            return self.send_offer()
        try:
            acceptor.step(raw)
        except (SpnegoError, ValueError, struct.error) as error:
            self.log_message("NTLM rejected: %s", error)
            return self.send_offer()
        self.user = acceptor.client_principal
        return self.send_user()

    def send_offer(self):
        offers = [("WWW-Authenticate", "NTLM")]
        if self.also_basic:
            offers.append(("WWW-Authenticate", 'Basic realm="ntlm-fixture"'))
        self.send(401, "text/plain", b"NTLM authentication required\n", offers)

    def send_user(self):
        body = json.dumps({"user": self.user, "path": self.path}).encode()
        self.send(200, "application/json", body)

    def send(self, status, content_type, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def drop_body(self):
        """Reads the request body (Content-Length or chunked) so the next request starts where it should."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailer fields
                    return
                self.rfile.read(size + 2)  # the chunk and its CRLF
        length = int(self.headers.get("Content-Length") or 0)
        if length > 0:
            self.rfile.read(length)

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = respond


def main():
    Handler.also_basic = "--also-basic" in sys.argv[1:]
    try:
        new_acceptor()  # fails now, not at the first request, when NTLM_USER_FILE is unset or missing
    except SpnegoError as error:
        print(f"ntlm_origin.py: no NTLM acceptor: {error}", file=sys.stderr)
        sys.exit(2)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True  # open keep-alive connections must not hold the exit

    when_stdin_closes(server.shutdown)
    # The launcher may have spawned us with SIGTERM blocked (a Swift cooperative thread's mask is inherited).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(server.server_address[1], flush=True)
    with server:
        server.serve_forever()


if __name__ == "__main__":
    main()
