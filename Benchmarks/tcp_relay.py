#!/usr/bin/env python3
"""A TCP relay between a client and one origin, as lean as a process passing bytes on can be: the
ceiling for any service that receives a body on one loopback connection and sends it on another
(stdlib only; Benchmarks/upload.sh's `relay-splice` and `relay-copy` ways).

    tcp_relay.py PORT ORIGIN_PORT splice|copy

Listens on 127.0.0.1:PORT; each connection accepted is joined to a new connection to
127.0.0.1:ORIGIN_PORT, one thread per direction, until either side closes.
- splice: the bytes never enter user space (`splice(2)` socket → pipe → socket, a 1 MiB pipe), which
  libcurl and libmicrohttpd cannot do: below what any relay with a user-space buffer costs.
- copy: `recv_into` a 2 MiB buffer and `sendall` it: one copy in and one out, the least a relay through
  user-space buffers does (urlsessiond's streamed upload adds one copy into its ring and one out).
RELAY_BUFFER (bytes, default 2 MiB) sets the copy relay's buffer. Prints "ready" once listening.
"""
import fcntl
import os
import socket
import sys
import threading

CHUNK = 1 << 20
F_SETPIPE_SZ = 1031


def pump_splice(source, target):
    read_end, write_end = os.pipe()
    try:
        fcntl.fcntl(write_end, F_SETPIPE_SZ, CHUNK)
        while True:
            moved = os.splice(source.fileno(), write_end, CHUNK, flags=os.SPLICE_F_MOVE | os.SPLICE_F_MORE)
            if moved == 0:
                break
            while moved:
                moved -= os.splice(read_end, target.fileno(), moved, flags=os.SPLICE_F_MOVE | os.SPLICE_F_MORE)
    finally:
        os.close(read_end)
        os.close(write_end)


def pump_copy(source, target):
    buffer = bytearray(int(os.environ.get("RELAY_BUFFER", 2 * CHUNK)))
    view = memoryview(buffer)
    while True:
        count = source.recv_into(buffer)
        if count == 0:
            break
        target.sendall(view[:count])


def join(client, origin_port, pump):
    origin = socket.create_connection(("127.0.0.1", origin_port))

    def one_way(source, target):
        try:
            pump(source, target)
        except OSError:
            pass
        finally:
            for side in (source, target):
                try:
                    side.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    back = threading.Thread(target=one_way, args=(origin, client), daemon=True)
    back.start()
    one_way(client, origin)
    back.join()
    client.close()
    origin.close()


def main():
    port, origin_port, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    pump = {"splice": pump_splice, "copy": pump_copy}[mode]
    listener = socket.create_server(("127.0.0.1", port))
    print("ready", flush=True)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=join, args=(client, origin_port, pump), daemon=True).start()


if __name__ == "__main__":
    main()
