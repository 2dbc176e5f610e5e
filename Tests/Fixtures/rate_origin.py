#!/usr/bin/env python3
"""An HTTP/1.1 origin that measures the rate it sends at as the network sees it (bandwidth-limit tests).

    rate_origin.py --host H --port P [--port-file F] [--exit-on-stdin-eof]

Standard library only; shares path_origin.py's body pattern and range parsing. With `--port 0` the OS picks
the port, written to --port-file once the server listens. --exit-on-stdin-eof ends it when stdin closes.

Endpoints (HTTP/1.1 keep-alive, every response has Content-Length):
- GET /bytes/{n}?tag=T: n bytes of path_origin.py's pattern (byte i = i % 251) as fast as the client takes
  them, with `ETag: "bytes-{n}"`, `Accept-Ranges: bytes` and single `Range`s (206) as path_origin.py, so
  a segmented download works. The socket's send buffer is 32 KiB, so what is written is what the client
  received within a few tens of KiB; the measurement is the kernel's own: TCP_INFO's tcpi_bytes_acked,
  sampled every 50 ms from the start of the response until the client has acknowledged its last byte
  (which may be after the last write: a client holding back leaves the send buffer full, and those
  bytes, acknowledged before its next request on the connection, belong to this response).
- PUT or POST /upload?tag=T: reads a Content-Length body in 64 KiB reads, recording the bytes received over
  time; answers 200 with the count.
- GET /samples?tag=T: 200 JSON, every response or upload tagged T so far, in order:
  [{"path": "...", "range": "bytes=0-" | null, "samples": [[seconds since the epoch, bytes], ...],
    "done": true | false}] (bytes: acknowledged by the client for downloads, read for uploads).
"""
import argparse
import json
import os
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from socketserver import TCPServer
from urllib.parse import parse_qs, urlsplit


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_process import when_stdin_closes  # noqa: E402
from path_origin import BYTES_PATH, CLIENT_GONE, CHUNK, UNSATISFIABLE, parse_range, pattern_bytes, write_port_file  # noqa: E402

SEND_BUFFER = 32 * 1024
SAMPLE_PERIOD = 0.05
TCP_INFO_SIZE = 232
BYTES_ACKED_OFFSET = 120  # struct tcp_info: tcpi_bytes_acked (u64), after the u64 pacing rates


def bytes_acked(sock):
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_SIZE)
    return int.from_bytes(info[BYTES_ACKED_OFFSET:BYTES_ACKED_OFFSET + 8], sys.byteorder)


class Measurements:
    """Every tagged response's samples; a sampler thread reads TCP_INFO of the downloads in flight."""

    def __init__(self):
        self.lock = threading.Lock()
        self.entries = []  # dicts: tag, path, range, samples, done, socket, base
        threading.Thread(target=self.sample_forever, daemon=True).start()

    def add(self, tag, path, range_header, sock=None):
        entry = {"tag": tag, "path": path, "range": range_header, "samples": [], "done": False, "socket": sock, "base": 0,
                 "expected": None}
        if sock is not None:
            entry["base"] = bytes_acked(sock)
            entry["samples"].append([time.time(), 0])
        with self.lock:
            self.entries.append(entry)
        return entry

    def record(self, entry, count):
        with self.lock:
            entry["samples"].append([time.time(), count])

    def finish(self, entry, written=None):
        """The response's last byte is written (`written` body bytes): sampled until it is acknowledged."""
        if entry["socket"] is not None and written is not None:
            entry["expected"] = written
            self.sample(entry)
            return
        with self.lock:
            entry["done"] = True
            entry["socket"] = None

    def sample(self, entry):
        sock = entry["socket"]
        if sock is None:
            return
        try:
            acked = bytes_acked(sock) - entry["base"]
        except OSError:  # the connection is closed: nothing more will be acknowledged
            acked = None
        expected = entry["expected"]
        if acked is not None:
            self.record(entry, acked if expected is None else min(acked, expected))
        if acked is None or (expected is not None and acked >= expected):
            with self.lock:
                entry["done"] = True
                entry["socket"] = None

    def sample_forever(self):
        while True:
            time.sleep(SAMPLE_PERIOD)
            with self.lock:
                running = [entry for entry in self.entries if entry["socket"] is not None and not entry["done"]]
            for entry in running:
                self.sample(entry)

    def report(self, tag):
        with self.lock:
            return [
                {"path": e["path"], "range": e["range"], "samples": list(e["samples"]), "done": e["done"]}
                for e in self.entries if e["tag"] == tag
            ]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "rate-origin"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

    def handle(self):
        try:
            super().handle()
        except CLIENT_GONE:
            pass

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        url = urlsplit(self.path)
        tag = parse_qs(url.query).get("tag", [""])[-1]
        if url.path == "/samples":
            return self.send_json(self.server.measurements.report(tag))
        match = BYTES_PATH.fullmatch(url.path)
        if match:
            return self.send_bytes(int(match.group(1)), tag)
        return self.send_json({"error": f"no such path: {url.path}"}, status=404)

    def do_PUT(self):
        self.receive_upload()

    def do_POST(self):
        self.receive_upload()

    def receive_upload(self):
        url = urlsplit(self.path)
        tag = parse_qs(url.query).get("tag", [""])[-1]
        length = int(self.headers.get("Content-Length") or 0)
        entry = self.server.measurements.add(tag, self.path, None)
        self.server.measurements.record(entry, 0)
        received, last = 0, 0.0
        while received < length:
            data = self.rfile.read1(min(65536, length - received))
            if not data:
                break
            received += len(data)
            now = time.time()
            if now - last >= SAMPLE_PERIOD:
                self.server.measurements.record(entry, received)
                last = now
        self.server.measurements.record(entry, received)
        self.server.measurements.finish(entry)
        self.send_json({"received": received})

    def send_json(self, value, status=200):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_bytes(self, size, tag):
        etag = f'"bytes-{size}"'
        selected = None
        if self.headers.get("Range") is not None:
            selected = parse_range(self.headers["Range"], size)
            if_range = self.headers.get("If-Range")
            if if_range is not None and if_range.strip() != etag:
                selected = None
        validators = [("ETag", etag), ("Accept-Ranges", "bytes")]
        if selected == UNSATISFIABLE:
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        first, last = selected if selected else (0, size - 1)
        self.send_response(206 if selected else 200)
        for name, value in validators:
            self.send_header(name, value)
        if selected:
            self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(last + 1 - first))
        self.end_headers()
        self.wfile.flush()
        entry = self.server.measurements.add(tag, self.path, self.headers.get("Range"), self.connection)
        position = first
        try:
            while position <= last:
                length = min(CHUNK, last + 1 - position)
                self.wfile.write(pattern_bytes(position, length))
                position += length
        finally:
            self.server.measurements.finish(entry, written=position - first)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def server_bind(self):
        TCPServer.server_bind(self)  # no getfqdn
        host, port = self.server_address[:2]
        self.server_name = host
        self.server_port = port

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], CLIENT_GONE):
            return
        super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description="HTTP/1.1 origin that measures its sending rate")
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--port-file")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    arguments = parser.parse_args()

    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGINT, lambda *_: sys.exit(0))

    server = Server((arguments.host, arguments.port), Handler)
    server.measurements = Measurements()

    if arguments.exit_on_stdin_eof:
        when_stdin_closes(server.shutdown)

    if arguments.port_file:
        write_port_file(arguments.port_file, server.server_address[1])
    with server:
        server.serve_forever()


if __name__ == "__main__":
    main()
