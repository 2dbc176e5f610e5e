#!/usr/bin/env python3
"""A TCP proxy that delays every byte by DELAY_MS in each direction, as a long link would (stdlib only).

    latency_proxy.py LISTEN_PORT [TARGET_HOST:]TARGET_PORT DELAY_MS PORT_FILE

This kernel has no netem qdisc, so link latency is emulated in user space: each chunk read from one side
is written to the other DELAY_MS after it arrived, in order (a round trip costs 2 x DELAY_MS). Listens on
127.0.0.1:LISTEN_PORT (0: the OS chooses; the port is written to PORT_FILE once listening) and connects
to TARGET_HOST (default 127.0.0.1).

Threads, not asyncio: asyncio's selector rounds every timeout up to a whole millisecond, so a delay of
0.5 ms became a round trip of about 2.3 ms (measured with an echo server); `time.sleep` keeps the delay
to within a few tens of microseconds. Two threads per direction: one reads and stamps, one waits until
each chunk is due and writes it.
"""
import queue
import socket
import sys
import threading
import time


def pump(source, destination, delay):
    """Copies source to destination, each chunk delivered `delay` seconds after it was read."""
    chunks = queue.SimpleQueue()

    def deliver():
        try:
            while True:
                due, chunk = chunks.get()
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                if not chunk:
                    break
                destination.sendall(chunk)
        except OSError:
            pass
        finally:
            try:
                destination.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    sender = threading.Thread(target=deliver, daemon=True)
    sender.start()
    try:
        while True:
            chunk = source.recv(65536)
            chunks.put((time.monotonic() + delay, chunk))
            if not chunk:
                break
    except OSError:
        chunks.put((time.monotonic(), b""))
    sender.join()


def handle(client, target, delay):
    try:
        server = socket.create_connection(target)
    except OSError:
        client.close()
        return
    for end in (client, server):
        end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    upstream = threading.Thread(target=pump, args=(client, server, delay), daemon=True)
    upstream.start()
    pump(server, client, delay)
    upstream.join()
    client.close()
    server.close()


def main():
    listen_port, target, delay_ms, port_file = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
    target_host, _, target_port = target.rpartition(":")
    target = (target_host or "127.0.0.1", int(target_port))
    delay = delay_ms / 1000
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", listen_port))
    listener.listen(1024)
    with open(port_file, "w") as f:
        f.write(f"{listener.getsockname()[1]}\n")
    while True:
        client, _ = listener.accept()
        threading.Thread(target=handle, args=(client, target, delay), daemon=True).start()


main()
