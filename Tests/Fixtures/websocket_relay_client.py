#!/usr/bin/env python3
"""A WebSocket client of the service's relay (`GET /v1/tasks/{id}/socket`), with the `websockets` library,
for the relay's integration tests: the task's origin is `websocket_echo.py`'s `/echo`.

    websocket_relay_client.py SCENARIO URL TOKEN [--protocol NAME ...] [--ready-file PATH]

URL is the relay's `ws://127.0.0.1:PORT/v1/tasks/ID/socket`; TOKEN the bearer token. Prints one JSON
object of what happened, then exits 0 (a scenario that fails raises, exit 1). Scenarios:

- `echo`: text, binary, a 600,000-character message sent in 64 KiB fragments, a ping (its pong awaited),
  200 messages in a row, then a close with 4001 "bye relay": `subprotocol`, `text`, `binary`,
  `fragmented`, `pong`, `ordered` (booleans: each came back as sent), `closeCode`/`closeReason` received.
- `origin-close`: asks the origin to close with 4003 "origin says bye": the close frame received.
- `drop`: one message echoed, then the connection is aborted without a close frame.
- `conflict`: while a relay is open, a second upgrade and a `GET .../messages` are tried (`second`,
  `messages`: their statuses), then the first closes with 1000.
- `hold`: one message echoed, then (after creating the file `--ready-file`, if given: the test stops the
  service only then) waits up to 30 s for the service to close: the close frame received.
- `backpressure`: 3,000 messages of 4 KiB sent while nothing is read for 2 s (the client's queue holds 4),
  then all read: `ordered` is whether every one came back, in order.

Every wait is bounded (the whole run by 60 s).
"""
import argparse
import asyncio
import json
import sys
import urllib.error
import urllib.request

try:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus
except ImportError as error:
    print(f"websocket_relay_client.py: {error}: `make test-deps` installs websockets into {sys.prefix}", file=sys.stderr)
    sys.exit(3)


def received_close(connection):
    frame = connection.protocol.close_rcvd
    return {"closeCode": frame.code if frame else None, "closeReason": frame.reason if frame else None}


async def echo(open_relay):
    async with open_relay() as ws:
        result = {"subprotocol": ws.subprotocol}
        await ws.send("héllo")
        result["text"] = await ws.recv() == "héllo"
        data = bytes(range(256)) * 3
        await ws.send(data)
        result["binary"] = await ws.recv() == data
        large = "".join(chr(0x41 + i % 26) for i in range(600_000))
        await ws.send([large[i:i + 65536] for i in range(0, len(large), 65536)])  # one frame per fragment
        result["fragmented"] = await ws.recv() == large
        pong = await ws.ping(b"relay-ping")
        await asyncio.wait_for(pong, 5)
        result["pong"] = True
        for index in range(200):
            await ws.send(f"m{index}")
        result["ordered"] = [await ws.recv() for _ in range(200)] == [f"m{index}" for index in range(200)]
        await ws.close(4001, "bye relay")
        result.update(received_close(ws))
    return result


async def origin_close(open_relay):
    async with open_relay() as ws:
        await ws.send("close 4003 origin says bye")
        try:
            await ws.recv()
        except ConnectionClosed:
            pass
        return received_close(ws)


async def drop(open_relay):
    async with open_relay() as ws:
        await ws.send("hello")
        echoed = await ws.recv() == "hello"
        ws.transport.abort()
    return {"echoed": echoed}


async def conflict(open_relay, url, token):
    async with open_relay() as ws:
        await ws.send("first")
        result = {"echoed": await ws.recv() == "first"}
        try:
            async with open_relay():
                result["second"] = 101
        except InvalidStatus as refusal:
            result["second"] = refusal.response.status_code
        messages = url.replace("ws://", "http://").removesuffix("/socket") + "/messages"
        request = urllib.request.Request(messages, headers={"Authorization": f"Bearer {token}"})
        try:
            with await asyncio.to_thread(urllib.request.urlopen, request, timeout=10) as response:
                result["messages"] = response.status
        except urllib.error.HTTPError as refusal:
            result["messages"] = refusal.code
        await ws.close(1000)
        result.update(received_close(ws))
    return result


async def hold(open_relay, ready_file):
    async with open_relay() as ws:
        await ws.send("hello")
        echoed = await ws.recv() == "hello"
        if ready_file:
            open(ready_file, "w").close()
        await asyncio.wait_for(ws.wait_closed(), 30)
        return {"echoed": echoed, **received_close(ws)}


async def backpressure(open_relay):
    count, filler = 3000, "x" * 4096
    async with open_relay(max_queue=4) as ws:
        async def sender():
            for index in range(count):
                await ws.send(f"{index:06d}{filler}")

        sending = asyncio.create_task(sender())
        await asyncio.sleep(2)
        received = [int((await ws.recv())[:6]) for _ in range(count)]
        await sending
        await ws.close(1000)
    return {"ordered": received == list(range(count))}


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario")
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("--protocol", action="append", default=[])
    parser.add_argument("--ready-file")
    args = parser.parse_args()

    def open_relay(**options):
        return connect(
            args.url, additional_headers={"Authorization": f"Bearer {args.token}"},
            subprotocols=args.protocol or None, compression=None, max_size=1 << 22, open_timeout=10, close_timeout=10,
            **options)

    scenarios = {
        "echo": lambda: echo(open_relay),
        "origin-close": lambda: origin_close(open_relay),
        "drop": lambda: drop(open_relay),
        "conflict": lambda: conflict(open_relay, args.url, args.token),
        "hold": lambda: hold(open_relay, args.ready_file),
        "backpressure": lambda: backpressure(open_relay),
    }
    result = await asyncio.wait_for(scenarios[args.scenario](), 60)
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())
