#!/usr/bin/env python3
"""Creates many urlsessiond tasks at once and waits until every one has completed (stdlib only).

    transfers_client.py BASE[,BASE...] TOKEN SESSION_ID[,SESSION_ID...] URL_PREFIX COUNT CONNECTIONS KIND [TIMEOUT=120] [BYTES]

Creates COUNT tasks `{"kind": KIND, "request": {"url": URL_PREFIX + i}, "resume": true}` (i = 0..COUNT-1;
task i in the (i mod N)-th of the N sessions given) from CONNECTIONS threads, each with its own keep-alive
connection (opened before the clock starts), then polls `GET /v1/sessions/{id}/tasks?state=running&limit=1`
every 10 ms, session after session, until no task is running in any. CREATOR=curl sends the creates with
`curl --parallel`; CREATOR=batch sends them as `POST …/tasks/batch` of BATCH_SIZE (default 100) members. The clock stops there. Then, untimed,
it pages through the sessions' tasks and checks that each completed with HTTP 200, no error and (when BYTES
is given) that many bytes received. AT_DONE, when set, is a bash command run as the clock stops (its
output is `atDone`). VERIFY=0 skips the check; VERIFY=only runs the check alone (no task is created, the
sessions' tasks are expected to have completed already: Benchmarks/events.sh checks them after the
deliveries, so that reading them does not compete with the deliveries it times). Prints one JSON line; `startedAt` and `finishedAt` are the wall-clock
(Unix) times of the first create and of the poll that found no running task.

Several BASEs (nodes of one cluster, Benchmarks/cluster.sh): task i is created through the (i mod M)-th of
the M bases (CREATOR=curl), or connection k talks to the (k mod M)-th (threads, batches); polls and
checks go to the first.
"""
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse


def write_curl_config(bases, token, sessions, prefix, count, kind):
    """A curl config with one POST per task (`next` between them), each writing its status code; task i
    through the (i mod M)-th of the M bases."""
    handle, path = tempfile.mkstemp(suffix=".curl")
    with os.fdopen(handle, "w") as config:
        for i in range(count):
            body = json.dumps({"kind": kind, "request": {"url": f"{prefix}{i}"}, "resume": True})
            config.write(
                f'next\nurl = "{bases[i % len(bases)]}/v1/sessions/{sessions[i % len(sessions)]}/tasks"\n'
                f'header = "Authorization: Bearer {token}"\nheader = "Content-Type: application/json"\n'
                f'data = {json.dumps(body)}\noutput = "/dev/null"\nwrite-out = "%{{http_code}}\\n"\n')
    return path


def main():
    base_list, token, session_list, prefix, count, connections, kind = sys.argv[1:8]
    bases = base_list.split(",")
    sessions = session_list.split(",")
    count, connections = int(count), int(connections)
    timeout = float(sys.argv[8]) if len(sys.argv) > 8 else 120.0
    expected = int(sys.argv[9]) if len(sys.argv) > 9 else None
    urls = [urllib.parse.urlsplit(base) for base in bases]
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    deadline = time.monotonic() + timeout

    def connect(index=0):
        url = urls[index % len(urls)]
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
        conn.connect()
        return conn

    def call(conn, method, path, body=None):
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()

    errors = []
    created = [0] * connections
    start = threading.Barrier(connections + 1)

    def creator(index, conn):
        start.wait()
        try:
            for i in range(index, count, connections):
                body = json.dumps({"kind": kind, "request": {"url": f"{prefix}{i}"}, "resume": True})
                status, answer = call(conn, "POST", f"/v1/sessions/{sessions[i % len(sessions)]}/tasks", body)
                if status != 201:
                    errors.append(f"create {i}: {status} {answer[:200]!r}")
                    return
                created[index] += 1
        except Exception as error:  # noqa: BLE001 - reported, not hidden
            errors.append(f"create: {error!r}")

    def batcher(index, conn, size):
        # Batches of `size` members, one session's tasks each, round-robin over the threads.
        start.wait()
        try:
            batches = [[i for i in range(count) if i % len(sessions) == s] for s in range(len(sessions))]
            chunks = [(s, b[k:k + size]) for s, b in enumerate(batches) for k in range(0, len(b), size)]
            for session, members in chunks[index::connections]:
                body = json.dumps({"tasks": [
                    {"kind": kind, "request": {"url": f"{prefix}{i}"}, "resume": True} for i in members]})
                status, answer = call(conn, "POST", f"/v1/sessions/{sessions[session]}/tasks/batch", body)
                items = json.loads(answer).get("items", []) if status == 201 else []
                good = sum(1 for item in items if "problem" not in item)
                if good != len(members):
                    errors.append(f"batch: {status} {good}/{len(members)} {answer[:200]!r}")
                    return
                created[index] += good
        except Exception as error:  # noqa: BLE001 - reported, not hidden
            errors.append(f"batch: {error!r}")

    def run_threads(target, *extra):
        # One thread per connection, all released at once when the clock starts; returns the start times.
        threads = [threading.Thread(target=target, args=(i, c) + extra, daemon=True) for i, c in enumerate(conns)]
        for thread in threads:
            thread.start()
        start.wait()
        times = time.monotonic(), time.time()
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return times

    poller = connect()
    conns = []
    polls, timed_out, at_done = 0, False, None
    t0 = t_created = t_done = time.monotonic()
    started_at = finished_at = time.time()
    if os.environ.get("VERIFY") == "only":
        created[0] = count
    else:
        if os.environ.get("CREATOR") == "batch":
            # BATCH_SIZE members per POST …/tasks/batch, over CONNECTIONS connections.
            conns = [connect(i) for i in range(connections)]
            t0, started_at = run_threads(batcher, int(os.environ.get("BATCH_SIZE", "100")))
        elif os.environ.get("CREATOR") == "curl":
            # The creates from `curl --parallel` (native, like the peers) over CONNECTIONS connections; this
            # process only polls and checks. The config is written before the clock starts.
            config = write_curl_config(bases, token, sessions, prefix, count, kind)
            t0, started_at = time.monotonic(), time.time()
            codes = subprocess.run(
                ["curl", "--silent", "--parallel", "--parallel-max", str(connections), "--config", config],
                capture_output=True, text=True, timeout=timeout).stdout.split()
            created[0] = codes.count("201")
            if created[0] != count:
                errors.append(f"create: {len(codes)} answers, {created[0]} of them 201: {sorted(set(codes))}")
            os.unlink(config)
        else:
            conns = [connect(i) for i in range(connections)]
            t0, started_at = run_threads(creator)
        t_created = time.monotonic()
        busy = list(sessions)  # a session without running tasks gets none later: every task exists already
        while busy and not errors and time.monotonic() < deadline:
            status, answer = call(poller, "GET", f"/v1/sessions/{busy[0]}/tasks?state=running&limit=1")
            polls += 1
            if status != 200:
                errors.append(f"poll: {status} {answer[:200]!r}")
                break
            if not json.loads(answer)["items"]:
                busy.pop(0)
                continue
            time.sleep(0.01)
        t_done, finished_at = time.monotonic(), time.time()
        timed_out = t_done >= deadline
        # AT_DONE: a shell command run the moment the clock stops (Benchmarks/cluster.sh reads the processes'
        # CPU time there, so the untimed check below is not counted as the tasks' work).
        at_done = subprocess.run(["bash", "-c", os.environ["AT_DONE"]], capture_output=True, text=True,
                                 timeout=30).stdout.strip() if os.environ.get("AT_DONE") else None

    # Untimed verification: every task of the sessions, page by page (VERIFY=0, for profiles: none).
    completed = ok = 0
    pages = [(session, None) for session in sessions] if os.environ.get("VERIFY") != "0" else []
    while pages and not errors:
        session, after = pages.pop(0)
        path = f"/v1/sessions/{session}/tasks?limit=1000" + (f"&after={after}" if after else "")
        status, answer = call(poller, "GET", path)
        if status != 200:
            errors.append(f"list: {status} {answer[:200]!r}")
            break
        page = json.loads(answer)
        for task in page["items"]:
            if task["state"] == "completed":
                completed += 1
                response = task.get("response") or {}
                size_ok = expected is None or task["countOfBytesReceived"] == expected
                if task["error"] is None and response.get("statusCode") == 200 and size_ok:
                    ok += 1
                elif len(errors) < 5:
                    errors.append(f"task {task['id']}: error={task['error']} status={response.get('statusCode')} "
                                  f"bytes={task['countOfBytesReceived']}")
        if page["nextCursor"]:
            pages.insert(0, (session, page["nextCursor"]))
    for conn in conns + [poller]:
        conn.close()
    print(json.dumps({
        "count": count, "created": sum(created), "completed": completed, "ok": ok,
        "seconds": round(t_done - t0, 4), "createSeconds": round(t_created - t0, 4),
        "polls": polls, "timedOut": timed_out, "errors": errors[:5],
        "startedAt": round(started_at, 4), "finishedAt": round(finished_at, 4), "atDone": at_done,
    }))
    verified = ok == count or os.environ.get("VERIFY") == "0"
    return 0 if verified and not errors and not timed_out else 1


if __name__ == "__main__":
    sys.exit(main())
