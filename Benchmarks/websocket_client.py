#!/usr/bin/env python3
"""Echo round trips over a WebSocket, directly, through urlsessiond's WebSocket task API, or through its relay.

    websocket_client.py direct URL COUNT SIZE WINDOW
    websocket_client.py service BASE TOKEN TASK_ID COUNT SIZE WINDOW
    websocket_client.py relay BASE TOKEN TASK_ID COUNT SIZE WINDOW

Sends COUNT text messages of SIZE bytes to an echo server and waits for each to come back, WINDOW at a
time (1: one round trip after the other, the latency; more: throughput). `direct` is a WebSocket client
(the `websockets` library); `service` does the same through the API on keep-alive connections:
`POST /v1/tasks/{id}/messages` to send, `GET /v1/tasks/{id}/messages?after=&wait=` to receive; `relay`
is the same WebSocket client as `direct`, connected to the task's relay (`GET /v1/tasks/{id}/socket`),
which it closes with 1000 at the end (that completes the task). Prints
one JSON line: messages per second, and the round trips' median and 99th percentile in milliseconds.
"""
import asyncio
import http.client
import json
import statistics
import sys
import threading
import time
import urllib.parse


def summary(round_trips, seconds):
    ordered = sorted(round_trips)
    return {
        "messages": len(ordered), "seconds": round(seconds, 4), "messagesPerSecond": round(len(ordered) / seconds, 1),
        "p50ms": round(statistics.median(ordered) * 1000, 3), "p99ms": round(ordered[int(len(ordered) * 0.99) - 1] * 1000, 3),
    }


async def direct(url, count, size, window, headers=None):
    from websockets.asyncio.client import connect
    payloads = [f"{i:08d}".ljust(size, "x") for i in range(count)]
    sent_at = {}
    round_trips = []
    async with connect(url, additional_headers=headers, max_size=None, compression=None, ping_interval=None) as socket:
        started = time.perf_counter()
        done = asyncio.Event()

        async def reader():
            async for message in socket:
                round_trips.append(time.perf_counter() - sent_at[message[:8]])
                if len(round_trips) == count:
                    done.set()
                    return

        task = asyncio.create_task(reader())
        for i, payload in enumerate(payloads):
            while i - len(round_trips) >= window:
                await asyncio.sleep(0)
            sent_at[payload[:8]] = time.perf_counter()
            await socket.send(payload)
        await done.wait()
        await task
        result = summary(round_trips, time.perf_counter() - started)
        await socket.close(1000)
        return result


def service(base, token, task, count, size, window):
    parts = urllib.parse.urlsplit(base)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    payloads = [f"{i:08d}".ljust(size, "x") for i in range(count)]
    sent_at = {}
    round_trips = []
    slots = threading.Semaphore(window)
    failure = []

    def receive():
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        after = 0
        while len(round_trips) < count and not failure:
            connection.request("GET", f"/v1/tasks/{task}/messages?after={after}&wait=10&limit=1000", headers=headers)
            response = connection.getresponse()
            page = json.loads(response.read())
            if response.status != 200:
                failure.append(page)
                return
            now = time.perf_counter()
            for item in page["items"]:
                round_trips.append(now - sent_at[item["string"][:8]])
                slots.release()
            after = int(page["nextCursor"]) if page["nextCursor"] else after

    sender = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    reader = threading.Thread(target=receive)
    started = time.perf_counter()
    reader.start()
    for payload in payloads:
        slots.acquire()
        sent_at[payload[:8]] = time.perf_counter()
        sender.request("POST", f"/v1/tasks/{task}/messages", body=json.dumps({"string": payload}), headers=headers)
        response = sender.getresponse()
        response.read()
        if response.status != 204:
            failure.append(response.status)
            break
    reader.join()
    if failure:
        raise SystemExit(f"failed: {failure}")
    return summary(round_trips, time.perf_counter() - started)


if __name__ == "__main__":
    if sys.argv[1] == "direct":
        url, count, size, window = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        print(json.dumps(asyncio.run(direct(url, count, size, window))))
    elif sys.argv[1] == "relay":
        base, token, task = sys.argv[2:5]
        count, size, window = int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
        url = base.replace("http://", "ws://") + f"/v1/tasks/{task}/socket"
        print(json.dumps(asyncio.run(direct(url, count, size, window, {"Authorization": f"Bearer {token}"}))))
    else:
        base, token, task = sys.argv[2:5]
        count, size, window = int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
        print(json.dumps(service(base, token, task, count, size, window)))
