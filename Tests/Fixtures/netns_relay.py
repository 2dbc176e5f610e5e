#!/usr/bin/env python3
"""A TCP relay from the current network namespace into a named one, for services bound to loopback in there.

    netns_relay.py --netns NAME --target-port P --port-file F [--exit-on-stdin-eof]

Started (as root) by TestSupport's `ServiceProcess` and `NetworkLab`. Standard library only.

1. Listens on 127.0.0.1 on a port the OS picks, in the namespace it was started in (the test's).
2. Switches the whole process into the network namespace NAME (/var/run/netns/NAME, or a path) with
   setns(2), while it still has one thread: a switch applies to the calling thread and to threads it creates
   later, and the listening socket made in step 1 stays in the first namespace.
3. Writes the listening port (decimal, one line) to F: written to a temporary name and renamed, so a reader
   never sees half of it. The port file appears only once the relay is inside NAME; a failed switch exits
   with status 2 before any port is published.
4. Accepts forever. Each connection gets its own connection to 127.0.0.1:P inside NAME and two threads, one
   per direction. The end of one direction is passed on as a half-close (shutdown SHUT_WR), so HTTP
   keep-alive, long polls and server-sent events behave as on a direct connection; a reset or error on either
   side aborts both. A target that refuses is answered with a reset of the client's connection.

Ends on SIGTERM or SIGINT, and with --exit-on-stdin-eof when its stdin closes (the launcher went away).
"""
import argparse
import ctypes
import os
import signal
import socket
import struct
import sys
import threading
import time

from fixture_process import when_stdin_closes

CLONE_NEWNET = 0x40000000
BUFFER = 64 * 1024


def enter_network_namespace(name):
    """setns(2) into the network namespace `name`; raises OSError with the reason."""
    path = name if "/" in name else os.path.join("/var/run/netns", name)
    libc = ctypes.CDLL(None, use_errno=True)
    descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        if libc.setns(descriptor, CLONE_NEWNET) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"setns({path}, CLONE_NEWNET): {os.strerror(error)}")
    finally:
        os.close(descriptor)


def write_port_file(path, port):
    temporary = f"{path}.tmp{os.getpid()}"
    with open(temporary, "w") as file:
        file.write(f"{port}\n")
    os.replace(temporary, path)


def reset(sock):
    """Closes `sock` with a reset instead of a FIN (SO_LINGER 0)."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


class Pair:
    """Both sockets of one relayed connection; closed once both directions have ended."""

    def __init__(self, client, target):
        self.client = client
        self.target = target
        self.lock = threading.Lock()
        self.open_directions = 2

    def abort(self):
        for sock in (self.client, self.target):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def direction_ended(self):
        with self.lock:
            self.open_directions -= 1
            last = self.open_directions == 0
        if last:
            self.client.close()
            self.target.close()


def pump(pair, source, destination):
    """Copies `source` to `destination` until end of stream, then half-closes `destination`."""
    try:
        while True:
            data = source.recv(BUFFER)
            if not data:
                break
            destination.sendall(data)
        destination.shutdown(socket.SHUT_WR)
    except OSError:
        pair.abort()  # a reset or error on either side ends both directions
    finally:
        pair.direction_ended()


def relay(client, target_port):
    try:
        target = socket.create_connection(("127.0.0.1", target_port), timeout=10)
    except OSError as error:
        print(f"netns_relay.py: connecting to 127.0.0.1:{target_port}: {error}", file=sys.stderr, flush=True)
        reset(client)
        return
    target.settimeout(None)
    for sock in (client, target):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    pair = Pair(client, target)
    threading.Thread(target=pump, args=(pair, target, client), daemon=True).start()
    pump(pair, client, target)


def main():
    parser = argparse.ArgumentParser(description="TCP relay into a network namespace")
    parser.add_argument("--netns", required=True)
    parser.add_argument("--target-port", type=int, required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    arguments = parser.parse_args()

    # The launcher may have spawned us with SIGTERM blocked (a Swift cooperative thread's mask is inherited).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGINT, lambda *_: sys.exit(0))

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(512)
    # Still one thread here: no thread may start before this, or it would stay in the first namespace.
    try:
        enter_network_namespace(arguments.netns)
    except OSError as error:
        print(f"netns_relay.py: {error}", file=sys.stderr, flush=True)
        sys.exit(2)
    write_port_file(arguments.port_file, listener.getsockname()[1])

    threading.stack_size(256 * 1024)  # one or two threads per connection: keep them small
    if arguments.exit_on_stdin_eof:
        when_stdin_closes(lambda: os.kill(os.getpid(), signal.SIGTERM))

    while True:
        try:
            client, _ = listener.accept()
        except OSError as error:  # EMFILE and the like: let some connections end, then go on
            print(f"netns_relay.py: accept: {error}", file=sys.stderr, flush=True)
            time.sleep(0.1)
            continue
        threading.Thread(target=relay, args=(client, arguments.target_port), daemon=True).start()


if __name__ == "__main__":
    main()
