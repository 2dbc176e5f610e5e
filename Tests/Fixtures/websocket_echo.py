#!/usr/bin/env python3
"""A WebSocket origin on loopback (the `websockets` library), for tests of the service's WebSocket client.

    websocket_echo.py --port-file FILE [--exit-on-stdin-eof]

Started by TestSupport's `WebSocketEchoOrigin` with the test venv's Python, where `websockets` is installed.
Listens on 127.0.0.1 and a port the OS chooses, writes the port to FILE (atomically) once listening. The
subprotocol is the first the client offers of `chat`, `superchat` (none when it offers neither); no
extension is negotiated. Paths:

- `/echo`: every message comes back as it came (text as text, binary as binary); a text message
  `close CODE REASON` makes the server close with that code and reason; `ping PAYLOAD` makes it send
  a ping with that payload and, once its pong arrives, the text `pong received PAYLOAD`;
  `fragments N TEXT` makes it send TEXT back as N fragments; `drop` makes it drop the connection at once,
  without a close frame.
- `/headers`: one text message, the JSON object of the handshake's request header fields, then echo.
- `/close-now`: closes at once with 4000 "bye".
- anything else: the handshake is refused with 404.

Messages up to 64 MiB are taken. Exits when stdin closes (the launcher went away) or on SIGTERM.
"""
import argparse
import asyncio
import json
import os
import signal
import sys

try:
    from websockets.asyncio.server import serve
    from websockets.datastructures import Headers
    from websockets.http11 import Response
except ImportError as error:
    print(f"websocket_echo.py: {error}: `make test-deps` installs websockets into {sys.prefix}", file=sys.stderr)
    sys.exit(3)


async def handler(connection):
    path = connection.request.path.split("?")[0]
    if path == "/close-now":
        await connection.close(4000, "bye")
        return
    if path == "/headers":
        await connection.send(json.dumps({name: value for name, value in connection.request.headers.raw_items()}))
    async for message in connection:
        if isinstance(message, str) and message.startswith("close "):
            _, code, reason = (message.split(" ", 2) + [""])[:3]
            await connection.close(int(code), reason)
            return
        if message == "drop":
            connection.transport.abort()
            return
        if isinstance(message, str) and message.startswith("ping "):
            pong = await connection.ping(message[5:].encode())
            await asyncio.wait_for(pong, 10)
            await connection.send("pong received " + message[5:])
            continue
        if isinstance(message, str) and message.startswith("fragments "):
            _, count, text = message.split(" ", 2)
            size = max(1, -(-len(text) // int(count)))
            await connection.send([text[i:i + size] for i in range(0, len(text), size)])
            continue
        await connection.send(message)


def choose_subprotocol(connection, offered):
    """The first offered of ours; none when none is offered (the library's default refuses that)."""
    return next((name for name in offered if name in ("chat", "superchat")), None)


def refuse_unknown_paths(connection, request):
    if request.path.split("?")[0] not in ("/echo", "/headers", "/close-now"):
        return Response(404, "Not Found", Headers([("Content-Length", "0")]), b"")
    return None


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    options = parser.parse_args()
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    if options.exit_on_stdin_eof:
        loop = asyncio.get_running_loop()

        def watch_stdin():
            sys.stdin.buffer.read()
            loop.call_soon_threadsafe(lambda: stop.done() or stop.set_result(None))

        loop.run_in_executor(None, watch_stdin)
    async with serve(handler, "127.0.0.1", 0, select_subprotocol=choose_subprotocol, process_request=refuse_unknown_paths,
                     max_size=64 << 20, compression=None, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        temporary = options.port_file + ".tmp"
        with open(temporary, "w") as file:
            file.write(str(port))
        os.replace(temporary, options.port_file)
        await stop
    os._exit(0)  # the stdin reader thread may still be blocked


if __name__ == "__main__":
    asyncio.run(main())
