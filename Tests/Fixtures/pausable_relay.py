#!/usr/bin/env python3
"""A TCP relay to 127.0.0.1:P that a test can pause, as a network partition would: bytes stop flowing both
ways while every connection stays open (no reset, no FIN), then flow again.

    pausable_relay.py --target-port P --port-file F [--exit-on-stdin-eof]

SIGUSR1 pauses, SIGUSR2 resumes. Used by the multi-node tests to cut one node off from PostgreSQL without
touching the others. Standard library only.

Listens on 127.0.0.1 on a port the OS picks and writes it (decimal, one line) to F, atomically. Each
connection gets its own connection to the target and one thread per direction; the end of one direction is
passed on as a half-close. Ends on SIGTERM or SIGINT, and with --exit-on-stdin-eof when its stdin closes.
"""
import argparse
import os
import signal
import socket
import threading

from fixture_process import when_stdin_closes

BUFFER = 64 * 1024
flowing = threading.Event()
flowing.set()


def write_port_file(path, port):
    temporary = f"{path}.tmp{os.getpid()}"
    with open(temporary, "w") as file:
        file.write(f"{port}\n")
    os.replace(temporary, path)


def pump(source, destination):
    """Copies one direction; bytes read while paused are held until the relay flows again."""
    try:
        while True:
            flowing.wait()
            data = source.recv(BUFFER)
            if not data:
                destination.shutdown(socket.SHUT_WR)
                return
            flowing.wait()
            destination.sendall(data)
    except OSError:
        for sock in (source, destination):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def relay(client, target_port):
    try:
        target = socket.create_connection(("127.0.0.1", target_port))
    except OSError:
        client.close()
        return
    for source, destination in ((client, target), (target, client)):
        threading.Thread(target=pump, args=(source, destination), daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target-port", type=int, required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    arguments = parser.parse_args()

    signal.signal(signal.SIGUSR1, lambda *_: flowing.clear())
    signal.signal(signal.SIGUSR2, lambda *_: flowing.set())
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    if arguments.exit_on_stdin_eof:
        when_stdin_closes(lambda: os._exit(0))

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    write_port_file(arguments.port_file, listener.getsockname()[1])
    while True:
        client, _ = listener.accept()
        relay(client, arguments.target_port)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
