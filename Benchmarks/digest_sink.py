#!/usr/bin/env python3
"""An origin that reads a PUT's body to its end (Content-Length or chunked), answers 204 and prints the
body's sha-256 on a line of its own (stdout, flushed), so Benchmarks/upload.sh can check a body arrived
intact. GET /ready answers 204 once it listens.

    python3 Benchmarks/digest_sink.py PORT
"""
import hashlib
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_response(204)
        self.end_headers()

    def do_PUT(self):
        digest = hashlib.sha256()
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                self.read_into(digest, size)
                self.rfile.readline()
        else:
            self.read_into(digest, int(self.headers.get("Content-Length", "0")))
        print(digest.hexdigest(), flush=True)
        self.send_response(204)
        self.end_headers()

    def read_into(self, digest, count):
        while count > 0:
            chunk = self.rfile.read(min(count, 1 << 20))
            if not chunk:
                raise ConnectionError("the body ended early")
            digest.update(chunk)
            count -= len(chunk)


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Sink).serve_forever()
