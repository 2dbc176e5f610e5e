#!/usr/bin/env python3
"""An HTTP/1.1 origin that tells a test by which link, and how, each connection reached it ("network paths").

    path_origin.py --host H --port P --log FILE [--port-file F] [--exit-on-stdin-eof] [--mptcp-log FILE]

Started by TestSupport's `NetworkLab` inside the origin's network namespace (`--host 0.0.0.0`, every address
of the namespace), or directly on loopback by a test. Standard library only. With `--port 0` the OS picks the
port, written (decimal, one line) to --port-file once the server listens; the file is written to a temporary
name and renamed, so a reader never sees half of it. --exit-on-stdin-eof ends the server when its stdin closes
(the launcher went away without a signal). SIGTERM and SIGINT end it cleanly.

Endpoints (GET and HEAD; HTTP/1.1 keep-alive, every response has Content-Length):
- /whoami: 200 text/plain, the connection's peer address (e.g. 10.77.1.1).
- /bytes/{n}[?rate={bytes per second}]: n deterministic bytes, byte i = i % 251, with `ETag: "bytes-{n}"`,
  `Accept-Ranges: bytes` and a fixed Last-Modified. `Range: bytes=a-`, `bytes=a-b` and `bytes=-k` answer 206
  with Content-Range; a range starting at or past n answers 416 with `Content-Range: bytes */n`; anything else
  (several ranges, garbage) is ignored, as RFC 9110 allows, and answers the whole 200. `If-Range` applies the
  range only when it is exactly the strong ETag (a date never matches); otherwise the whole 200. With `rate`
  the body is paced: chunks of 16 KiB (smaller below 160 kB/s: ten writes a second), each sent when the bytes
  up to its end are due, so n bytes take n / rate seconds.
- /tos: 200 text/plain, the TOS byte (decimal) of the packets the client sent on this connection, as the
  kernel recorded it (IP_RECVTOS on the listening socket, read back on the accepted socket with Linux's
  IP_PKTOPTIONS); "none" when the kernel reports none (IPv6 sockets, or not Linux).
- anything else: 404.

With --mptcp-log the listening socket is Multipath TCP (IPPROTO_MPTCP: a client that does not speak it gets
plain TCP on the same socket, as the kernel falls back), and every /bytes response appends one JSON line
to that file when it ends (completed or cut), from the kernel's MPTCP_INFO, MPTCP_SUBFLOW_ADDRS and
MPTCP_TCPINFO, sampled after every chunk written:
    {"peer": "10.77.2.1", "path": "/bytes/...", "mptcp": true | false (plain TCP or fallen back),
     "subflows": the most extra subflows seen (mptcpi_subflows), "complete": true | false,
     "bytesByPeer": {"10.77.2.1": bytes acked on that peer's subflows, "10.77.1.1": ...}}

Every request appends one JSON line to --log, flushed at once:
    {"peer": "10.77.1.1", "path": "/bytes/10?rate=5", "range": "bytes=0-" | null, "ifRange": ... | null,
     "time": 1700000000.123}
A client that disconnects mid-response ends its handler quietly (no traceback).
"""
import argparse
import json
import os
import re
import signal
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from socketserver import TCPServer
from urllib.parse import parse_qs, urlsplit

from fixture_process import when_stdin_closes

IP_RECVTOS = getattr(socket, "IP_RECVTOS", 13)
IP_PKTOPTIONS = 9  # <linux/in.h>; Python does not name it
CHUNK = 16 * 1024
PERIOD = 251  # byte i of every body is i % 251
# Enough of the pattern that any chunk of at most CHUNK bytes, starting at any phase, is one slice of it.
PATTERN = bytes(i % PERIOD for i in range(PERIOD)) * (CHUNK // PERIOD + 2)
LAST_MODIFIED = "Mon, 01 Jan 2024 00:00:00 GMT"
IPPROTO_MPTCP = 262
SOL_MPTCP = 284  # <linux/mptcp.h>: MPTCP_INFO 1, MPTCP_TCPINFO 2, MPTCP_SUBFLOW_ADDRS 3
MPTCP_INFO, MPTCP_TCPINFO, MPTCP_SUBFLOW_ADDRS = 1, 2, 3
BYTES_PATH = re.compile(r"/bytes/(\d{1,15})")
RANGE = re.compile(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*")
UNSATISFIABLE = "unsatisfiable"
# What a vanished client raises mid-response (BrokenPipeError, ConnectionResetError, ...; socket timeouts).
CLIENT_GONE = (ConnectionError, TimeoutError)


def pattern_bytes(start, length):
    """Bytes [start, start + length) of the body pattern; length <= CHUNK."""
    phase = start % PERIOD
    return PATTERN[phase:phase + length]


def parse_range(header, size):
    """The inclusive (first, last) a Range header selects of `size` bytes, UNSATISFIABLE, or None to ignore it."""
    match = RANGE.fullmatch(header)
    if match is None:
        return None  # several ranges, another unit, garbage: serve the whole representation
    first, last = match.groups()
    if first == "":
        if last == "":
            return None
        suffix = int(last)
        if suffix == 0 or size == 0:
            return UNSATISFIABLE
        return (max(0, size - suffix), size - 1)
    start = int(first)
    if last != "" and int(last) < start:
        return None  # invalid: ignored
    if start >= size:
        return UNSATISFIABLE
    return (start, size - 1 if last == "" else min(int(last), size - 1))


def received_tos(connection):
    """The TOS byte the kernel recorded for this TCP connection (IP_PKTOPTIONS' IP_TOS message), or None."""
    if connection.family != socket.AF_INET:
        return None
    try:
        raw = connection.getsockopt(socket.IPPROTO_IP, IP_PKTOPTIONS, 256)
    except OSError:
        return None
    # struct cmsghdr { size_t cmsg_len; int cmsg_level; int cmsg_type; } then data, each record aligned to
    # sizeof(size_t) (CMSG_ALIGN); CMSG_LEN(0) is the aligned header size, where the data starts.
    header = struct.Struct("@Nii")
    data_offset = socket.CMSG_LEN(0)
    align = struct.calcsize("@N")
    offset = 0
    while offset + data_offset <= len(raw):
        length, level, kind = header.unpack_from(raw, offset)
        if length < data_offset or offset + length > len(raw):
            break
        data = raw[offset + data_offset:offset + length]
        if level == socket.IPPROTO_IP and kind == socket.IP_TOS and data:
            # The kernel puts an int here for IP_PKTOPTIONS (a single byte for recvmsg's IP_TOS).
            return data[0] if len(data) == 1 else int.from_bytes(data[:4], sys.byteorder) & 0xFF
        offset += (length + align - 1) & ~(align - 1)
    return None


class MultipathSampler:
    """What the kernel says of one Multipath TCP connection while a response goes out on it."""

    SUBFLOW_DATA = struct.Struct("@IIII")  # struct mptcp_subflow_data: size_subflow_data, num, size_kernel, size_user
    ADDRESS_SIZE = 128  # struct mptcp_subflow_addrs: two sockaddr_storage (local, remote)
    TCP_INFO_SIZE = 232  # enough of struct tcp_info for tcpi_bytes_acked (offset 120)

    def __init__(self, connection):
        import ctypes
        self.ctypes = ctypes
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = connection.fileno()
        self.subflows = 0
        self.bytes_by_peer = {}
        self.is_mptcp = self.info() is not None

    def info(self):
        """mptcpi_subflows, or None when the connection is plain TCP (EOPNOTSUPP)."""
        buffer = self.ctypes.create_string_buffer(256)
        length = self.ctypes.c_uint32(len(buffer))
        if self.libc.getsockopt(self.fd, SOL_MPTCP, MPTCP_INFO, buffer, self.ctypes.byref(length)) != 0:
            return None
        return buffer.raw[0]

    def subflow_array(self, option, size):
        header = self.SUBFLOW_DATA
        buffer = self.ctypes.create_string_buffer(header.size + 8 * size)
        header.pack_into(buffer, 0, header.size, 0, 0, size)
        length = self.ctypes.c_uint32(len(buffer))
        if self.libc.getsockopt(self.fd, SOL_MPTCP, option, buffer, self.ctypes.byref(length)) != 0:
            return []
        _, count, _, used = header.unpack_from(buffer, 0)
        return [buffer.raw[header.size + i * used:header.size + (i + 1) * used] for i in range(min(count, 8))]

    def sample(self):
        if not self.is_mptcp:
            return
        subflows = self.info()
        if subflows is None:
            return
        self.subflows = max(self.subflows, subflows)
        addresses = self.subflow_array(MPTCP_SUBFLOW_ADDRS, 2 * self.ADDRESS_SIZE)
        infos = self.subflow_array(MPTCP_TCPINFO, self.TCP_INFO_SIZE)
        totals = {}
        for address, info in zip(addresses, infos):
            remote = address[self.ADDRESS_SIZE:]
            family = struct.unpack_from("@H", remote, 0)[0]
            if family == socket.AF_INET:
                peer = socket.inet_ntop(socket.AF_INET, remote[4:8])
            elif family == socket.AF_INET6:
                peer = socket.inet_ntop(socket.AF_INET6, remote[8:24])
            else:
                continue
            acked = struct.unpack_from("@Q", info, 120)[0] if len(info) >= 128 else 0
            totals[peer] = totals.get(peer, 0) + acked
        for peer, acked in totals.items():  # a subflow that closed takes its count with it: keep the most seen
            self.bytes_by_peer[peer] = max(self.bytes_by_peer.get(peer, 0), acked)


class RequestLog:
    """The JSON-lines request log; one lock-guarded, flushed write per request."""

    def __init__(self, path):
        self.file = open(path, "a", encoding="utf-8")
        self.lock = threading.Lock()

    def append(self, entry):
        line = json.dumps(entry) + "\n"
        with self.lock:
            self.file.write(line)
            self.file.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "path-origin"

    def handle(self):
        try:
            super().handle()
        except CLIENT_GONE:
            pass  # the client went away mid-request or mid-response

    def log_message(self, format, *args):
        pass  # the JSON log is the record; stderr stays for real errors

    def do_GET(self):
        self.respond()

    def do_HEAD(self):
        self.respond()

    def peer(self):
        address = self.client_address[0]
        return address[7:] if address.startswith("::ffff:") else address

    def respond(self):
        self.server.request_log.append({
            "peer": self.peer(),
            "path": self.path,
            "range": self.headers.get("Range"),
            "ifRange": self.headers.get("If-Range"),
            "time": time.time(),
        })
        self.drop_body()
        url = urlsplit(self.path)
        if url.path == "/whoami":
            return self.send_text(200, self.peer())
        if url.path == "/tos":
            tos = received_tos(self.connection)
            return self.send_text(200, "none" if tos is None else str(tos))
        match = BYTES_PATH.fullmatch(url.path)
        if match:
            return self.send_bytes(int(match.group(1)), parse_qs(url.query))
        return self.send_text(404, f"no such path: {url.path}")

    def send_text(self, status, text, headers=()):
        body = text.encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_bytes(self, size, query):
        rate = 0
        if "rate" in query:
            try:
                rate = int(query["rate"][-1])
            except ValueError:
                rate = -1
            if rate <= 0:
                return self.send_text(400, "rate must be a positive integer (bytes per second)")
        etag = f'"bytes-{size}"'
        selected = None
        if self.headers.get("Range") is not None:
            selected = parse_range(self.headers["Range"], size)
            if_range = self.headers.get("If-Range")
            if if_range is not None and if_range.strip() != etag:
                selected = None  # the client's copy is another representation: send the whole one
        validators = [("ETag", etag), ("Last-Modified", LAST_MODIFIED), ("Accept-Ranges", "bytes")]
        if selected == UNSATISFIABLE:
            return self.send_text(416, "range not satisfiable", validators + [("Content-Range", f"bytes */{size}")])
        first, last = selected if selected else (0, size - 1)
        self.send_response(206 if selected else 200)
        for name, value in validators:
            self.send_header(name, value)
        if selected:
            self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(last + 1 - first))
        self.end_headers()
        if self.command != "HEAD":
            self.write_paced(first, last + 1, rate)

    def log_multipath(self, sampler, complete):
        sampler.sample()
        self.server.multipath_log.append({
            "peer": self.peer(), "path": self.path, "mptcp": sampler.is_mptcp, "subflows": sampler.subflows,
            "complete": complete, "bytesByPeer": sampler.bytes_by_peer,
        })

    def write_paced(self, start, end, rate):
        """Writes bytes [start, end) of the pattern; with a rate, each chunk waits until the bytes up to its
        end are due (k bytes at k / rate s), so that the whole body takes (end - start) / rate seconds."""
        chunk = CHUNK if rate == 0 else max(1, min(CHUNK, rate // 10))
        sampler = MultipathSampler(self.connection) if self.server.multipath_log else None
        began = time.monotonic()
        position = start
        try:
            while position < end:
                length = min(chunk, end - position)
                if rate:
                    delay = began + (position + length - start) / rate - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                self.wfile.write(pattern_bytes(position, length))
                position += length
                if sampler:
                    sampler.sample()
        finally:
            if sampler:
                self.log_multipath(sampler, position == end)

    def drop_body(self):
        """Reads a Content-Length request body so that keep-alive stays in step (chunked bodies: close)."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self.close_connection = True
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > 0:
            self.rfile.read(length)


class Server(ThreadingHTTPServer):
    multipath_log = None  # a RequestLog: the listening socket is Multipath TCP (set before the server is made)
    daemon_threads = True  # open keep-alive connections must not hold the exit
    allow_reuse_address = True

    def server_bind(self):
        if self.multipath_log:
            self.socket.close()
            self.socket = socket.socket(self.address_family, self.socket_type, IPPROTO_MPTCP)
        elif self.address_family == socket.AF_INET:
            # Accepted sockets inherit it: the kernel then records the TOS of the client's packets.
            self.socket.setsockopt(socket.IPPROTO_IP, IP_RECVTOS, 1)
        # TCPServer's bind, not HTTPServer's: that one resolves the host name (getfqdn), which can wait on
        # DNS in a namespace with no route to a resolver.
        TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = host
        self.server_port = port

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], CLIENT_GONE):
            return
        super().handle_error(request, client_address)


def write_port_file(path, port):
    temporary = f"{path}.tmp{os.getpid()}"
    with open(temporary, "w") as file:
        file.write(f"{port}\n")
    os.replace(temporary, path)


def main():
    parser = argparse.ArgumentParser(description="HTTP/1.1 origin for network-path tests")
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port-file")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    parser.add_argument("--mptcp-log")
    arguments = parser.parse_args()

    # The launcher may have spawned us with SIGTERM blocked (a Swift cooperative thread's mask is inherited).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGINT, lambda *_: sys.exit(0))

    Server.address_family = socket.AF_INET6 if ":" in arguments.host else socket.AF_INET
    if arguments.mptcp_log:
        Server.multipath_log = RequestLog(arguments.mptcp_log)
    server = Server((arguments.host, arguments.port), Handler)
    server.request_log = RequestLog(arguments.log)

    if arguments.exit_on_stdin_eof:
        when_stdin_closes(server.shutdown)

    if arguments.port_file:
        write_port_file(arguments.port_file, server.server_address[1])
    with server:
        server.serve_forever()


if __name__ == "__main__":
    main()
