#!/usr/bin/env python3
"""A TCP proxy that delays every byte by DELAY_MS in each direction, as a long link would (stdlib only).

    latency_proxy.py LISTEN_PORT [TARGET_HOST:]TARGET_PORT DELAY_MS PORT_FILE

This kernel has no netem qdisc, so link latency is emulated in user space: each chunk read from one side
is written to the other DELAY_MS after it arrived, in order (a round trip costs 2 x DELAY_MS). Listens on
127.0.0.1:LISTEN_PORT (0: the OS chooses; the port is written to PORT_FILE once listening) and connects
to TARGET_HOST (default 127.0.0.1).
"""
import asyncio
import sys


async def pump(reader, writer, delay):
    """Copies reader to writer, each chunk delivered `delay` seconds after it was read."""
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, chunk = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not chunk:
                break
            writer.write(chunk)
            await writer.drain()
        writer.close()

    sender = asyncio.create_task(deliver())
    try:
        while True:
            chunk = await reader.read(65536)
            await queue.put((loop.time() + delay, chunk))
            if not chunk:
                break
    except (ConnectionError, OSError):
        await queue.put((loop.time(), b""))
    await sender


async def main():
    listen_port, target, delay_ms, port_file = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
    target_host, _, target_port = target.rpartition(":")
    target_host = target_host or "127.0.0.1"
    delay = delay_ms / 1000

    async def handle(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection(target_host, int(target_port))
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            pump(client_reader, server_writer, delay), pump(server_reader, client_writer, delay), return_exceptions=True)

    server = await asyncio.start_server(handle, "127.0.0.1", listen_port, backlog=1024)
    with open(port_file, "w") as f:
        f.write(f"{server.sockets[0].getsockname()[1]}\n")
    async with server:
        await server.serve_forever()


asyncio.run(main())
