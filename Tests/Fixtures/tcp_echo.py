#!/usr/bin/env python3
"""A TCP echo server on loopback, for tests of the service's stream tasks (plain TCP, and TLS begun after
plain bytes, as STARTTLS does).

    tcp_echo.py --port-file FILE [--exit-on-stdin-eof] [--greeting TEXT] [--starttls --certificate PEM --key PEM]

Started by TestSupport's `TCPEchoOrigin` with the standard library only. Listens on 127.0.0.1 and a port the
OS chooses, writes the port to FILE (atomically) once listening. Each connection runs on its own thread:

- plain (default): every byte received is sent back as it came; at the client's end of its side (EOF) the
  server closes the connection (so the client reads its end too).
- `--greeting TEXT`: sent to every connection as it opens, before anything is read (a server that speaks
  first, as SMTP's `220`).
- `--starttls`: lines are read until `STARTTLS\\r\\n`, which is answered `OK\\r\\n` (the lines before it are
  echoed); then TLS begins with the certificate and key given (the server's side of the handshake), and
  every byte is echoed over TLS until the client's close_notify (or EOF), answered with the server's own
  close_notify before the connection is closed. A client that refuses the certificate ends only its
  connection.

Exits when stdin closes (the launcher went away) or on SIGTERM.
"""
import argparse
import os
import signal
import socket
import ssl
import sys
import threading


def echo(connection):
    while True:
        data = connection.recv(65536)
        if not data:
            return
        connection.sendall(data)


def serve_plain(connection):
    with connection:
        try:
            echo(connection)
        except OSError:
            pass


def serve_starttls(connection, context):
    with connection:
        try:
            pending = b""
            while b"STARTTLS\r\n" not in pending:
                data = connection.recv(65536)
                if not data:
                    return
                pending += data
                while b"\r\n" in pending and not pending.startswith(b"STARTTLS\r\n"):
                    line, pending = pending.split(b"\r\n", 1)
                    connection.sendall(line + b"\r\n")
            connection.sendall(b"OK\r\n")
            secure = context.wrap_socket(connection, server_side=True)
            echo(secure)
            secure.unwrap()
        except (OSError, ssl.SSLError):
            pass


def greet_then(greeting, serve, arguments):
    if greeting:
        try:
            arguments[0].sendall(greeting.encode())
        except OSError:
            arguments[0].close()
            return
    serve(*arguments)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    parser.add_argument("--greeting")
    parser.add_argument("--starttls", action="store_true")
    parser.add_argument("--certificate")
    parser.add_argument("--key")
    options = parser.parse_args()
    context = None
    if options.starttls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.certificate, options.key)

    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    if options.exit_on_stdin_eof:
        def watch_stdin():
            sys.stdin.buffer.read()
            os._exit(0)

        threading.Thread(target=watch_stdin, daemon=True).start()

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    temporary = options.port_file + ".tmp"
    with open(temporary, "w") as file:
        file.write(str(listener.getsockname()[1]))
    os.replace(temporary, options.port_file)
    while True:
        connection, _ = listener.accept()
        if context is None:
            target, arguments = serve_plain, (connection,)
        else:
            target, arguments = serve_starttls, (connection, context)
        threading.Thread(target=greet_then, args=(options.greeting, target, arguments), daemon=True).start()


if __name__ == "__main__":
    main()
