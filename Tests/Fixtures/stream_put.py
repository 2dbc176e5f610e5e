#!/usr/bin/env python3
"""Sends a generated body to a URL with PUT as it is produced (stdlib only), for streamed-upload tests.

    stream_put.py URL TOKEN MEBIBYTES [--length] [--stop-after MEBIBYTES] [--half-close]

The body is MEBIBYTES MiB of bytes derived from a counter (block i is 1 MiB of SHA-256 chains seeded by i),
sent chunked, or with `Content-Length` with --length. With --stop-after N it closes the connection after
N MiB, mid-body. With --half-close it shuts its sending side after the whole body, then reads the
answer. Prints one JSON line: the answer's status, the bytes sent and their SHA-256 (hex).
"""
import hashlib
import http.client
import json
import socket
import sys
import urllib.parse


def block(index):
    seed = hashlib.sha256(index.to_bytes(8, "big")).digest()
    return (seed * (1048576 // len(seed)))


def main():
    url, token, mebibytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sized = "--length" in sys.argv
    half_close = "--half-close" in sys.argv
    stop = int(sys.argv[sys.argv.index("--stop-after") + 1]) if "--stop-after" in sys.argv else None
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    connection.putrequest("PUT", parts.path)
    connection.putheader("Authorization", f"Bearer {token}")
    connection.putheader("Content-Type", "application/octet-stream")
    if sized:
        connection.putheader("Content-Length", str(mebibytes * 1048576))
    else:
        connection.putheader("Transfer-Encoding", "chunked")
    connection.endheaders()
    digest = hashlib.sha256()
    sent = 0
    for index in range(mebibytes):
        if stop is not None and index == stop:
            connection.sock.close()
            print(json.dumps({"status": None, "sent": sent, "sha256": digest.hexdigest()}))
            return
        data = block(index)
        digest.update(data)
        connection.send(data if sized else b"%x\r\n" % len(data) + data + b"\r\n")
        sent += len(data)
    if not sized:
        connection.send(b"0\r\n\r\n")
    if half_close:
        connection.sock.shutdown(socket.SHUT_WR)
    response = connection.getresponse()
    print(json.dumps({"status": response.status, "sent": sent, "sha256": digest.hexdigest(), "body": response.read().decode()}))


if __name__ == "__main__":
    main()
