#!/usr/bin/env python3
"""Waits until a local webhook receiver has every delegate event of the benchmark's sessions, then measures
and checks the deliveries. Needs `standardwebhooks` (run it with the test venv's python: make test-deps).

    events_check.py BASE TOKEN SESSIONS_JSON HOOKS_LOG CLIENT_JSON [TIMEOUT=300]

SESSIONS_JSON  [{"id": "ses_…", "secret": "whsec_…", "hook": "/hooks/0"}, …]: each session, the secret it
               was created with and the path of its delegate URL.
HOOKS_LOG      the receiver's access log (nginx, one worker, so lines are in the order it answered), one
               line per POST: `$msec $request_uri $status $http_webhook_id $http_webhook_timestamp
               $http_webhook_signature $content_length`.
CLIENT_JSON    transfers_client.py's answer: `startedAt` (first task created) and `finishedAt` (no task
               running any more), wall-clock seconds.

It follows the log (every 20 ms) until every session's event log is delivered, asking the service only
`GET /v1/sessions/{id}/events?after=N&limit=1` for a session whose deliveries pause (N: its delivered
ids), so as not to compete with the deliveries. AT_DONE, when set, is a bash command run the moment
every event has been delivered (its output is `atDone`). Then it reads every event through
`GET /v1/sessions/{id}/events?after=SEQ&limit=1000`, page by page, follows the log further should any
still be missing, and reads the logs once more past their last sequence (nothing may have been added);
all bounded by TIMEOUT seconds. The times measured come from the receiver's `$msec` and the client's
clock, so this script's own pace does not count. Then, untimed:
- every event was delivered at least once, answered 204, to its session's URL, with the three Standard
  Webhooks headers; the delivered ids are all known events (repeats are counted, not errors);
- per session, the first deliveries come in `sequence` order, and sequences are 1…n without gaps;
- each body length (`Content-Length`) equals the body rebuilt from the API's event as the dispatcher
  writes it (Sources/EventDelivery/WebhookPayload.swift: the stored `data` as is, then `id`, `sequence`,
  `sessionId`, `taskId`, `timestamp`, `type`, compact, keys sorted);
- the signatures of SAMPLE deliveries (spread over the log) verify with `standardwebhooks`' `Webhook`
  over those rebuilt bodies, and one of them fails with another secret.
Prints one JSON object; exits 1 when a check failed or the timeout passed.
"""
import base64
import http.client
import json
import math
import os
import random
import subprocess
import sys
import time
import urllib.parse
from datetime import datetime

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

SAMPLE = 20
DECODER = json.JSONDecoder()


def page_items(text):
    """The items of a list answer, each with its exact text (the API writes compact JSON)."""
    position = text.index('"items":[') + len('"items":[')
    items = []
    while text[position] != "]":
        item, end = DECODER.raw_decode(text, position)
        items.append((item, text[position:end]))
        position = end + (1 if text[end] == "," else 0)
    return items


def quoted(value):
    """A JSON string as WireJSON writes one: `"` and `\\` escaped, control characters escaped, the rest as is."""
    return json.dumps(value, ensure_ascii=False)


def webhook_body(event, raw):
    """The body the dispatcher POSTs for this event (WebhookPayload.body(of:)), from the API's item text."""
    prefix = '{"data":'
    if not raw.startswith(prefix):
        raise ValueError(f"event item does not start with {prefix}: {raw[:80]!r}")
    _, end = DECODER.raw_decode(raw, len(prefix))
    data = raw[len(prefix):end]  # the stored JSON, embedded as is
    task = quoted(event["taskId"]) if event["taskId"] is not None else "null"
    return (f'{prefix}{data},"id":{quoted(event["id"])},"sequence":{event["sequence"]},'
            f'"sessionId":{quoted(event["sessionId"])},"taskId":{task},'
            f'"timestamp":{quoted(event["timestamp"])},"type":{quoted(event["type"])}}}')


def epoch(timestamp):
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00")).timestamp()


def percentile(sorted_values, fraction):
    """Nearest rank."""
    return sorted_values[max(0, math.ceil(fraction * len(sorted_values)) - 1)]


def main():
    base, token, sessions_path, log_path, client_path = sys.argv[1:6]
    timeout = float(sys.argv[6]) if len(sys.argv) > 6 else 300.0
    deadline = time.monotonic() + timeout
    with open(sessions_path) as f:
        sessions = json.load(f)
    with open(client_path) as f:
        client = json.load(f)
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    headers = {"Authorization": f"Bearer {token}"}
    errors = []

    events = {}  # id -> {"session": index, "sequence", "timestamp", "type", "body"}
    last_sequence = [0] * len(sessions)
    hook_of = {s["hook"]: index for index, s in enumerate(sessions)}

    def read_events():
        """Reads each session's events past the last sequence seen; returns how many were new."""
        added = 0
        for index, session in enumerate(sessions):
            while True:
                conn.request("GET", f"/v1/sessions/{session['id']}/events?after={last_sequence[index]}&limit=1000",
                             headers=headers)
                response = conn.getresponse()
                text = response.read().decode()
                if response.status != 200:
                    raise RuntimeError(f"events of {session['id']}: {response.status} {text[:200]}")
                for event, raw in page_items(text):
                    if event["sequence"] != last_sequence[index] + 1:
                        errors.append(f"{session['id']}: sequence {event['sequence']} after {last_sequence[index]}")
                    last_sequence[index] = event["sequence"]
                    body = webhook_body(event, raw)
                    events[event["id"]] = {
                        "session": index, "sequence": event["sequence"], "timestamp": epoch(event["timestamp"]),
                        "type": event["type"], "body": body, "same": raw == body,
                    }
                    added += 1
                if json.loads(text)["nextCursor"] is None:
                    break
        return added

    deliveries = []  # (msec, uri, status, id, timestamp, signature, content_length), in log order
    first = {}  # id -> index in deliveries
    pending = ""

    def follow_log(log):
        nonlocal pending
        chunk = log.read()
        if not chunk:
            return
        lines = (pending + chunk).split("\n")
        pending = lines.pop()
        for line in lines:
            fields = line.split(" ")
            if len(fields) != 7:
                errors.append(f"log line not understood: {line[:200]!r}")
                continue
            msec, uri, status, event_id, stamp, signature, length = fields
            deliveries.append((float(msec), uri, int(status), event_id, stamp, signature, length))
            first.setdefault(event_id, len(deliveries) - 1)

    def nothing_after(index, sequence):
        """Whether session `index` has no event past `sequence` (one tiny request)."""
        conn.request("GET", f"/v1/sessions/{sessions[index]['id']}/events?after={sequence}&limit=1", headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
        if response.status != 200:
            raise RuntimeError(f"events of {sessions[index]['id']}: {response.status} {text[:200]}")
        return not json.loads(text)["items"]

    timed_out = False
    while not os.path.exists(log_path) and time.monotonic() < deadline:
        time.sleep(0.02)
    with open(log_path) as log:
        # 1. While deliveries go on, the service is asked as little as possible: a session whose count of
        #    delivered ids did not move since the last look is asked whether it has an event past that
        #    count (its first deliveries are in sequence order, checked below, so they are 1…count).
        delivered = [0] * len(sessions)
        seen = [-1] * len(sessions)
        done = [False] * len(sessions)
        while not all(done) and time.monotonic() < deadline:
            before = len(first)
            follow_log(log)
            for event_id in list(first)[before:]:
                index = hook_of.get(deliveries[first[event_id]][1])
                if index is not None:
                    delivered[index] += 1
            for index in range(len(sessions)):
                if not done[index] and delivered[index] == seen[index]:
                    done[index] = nothing_after(index, delivered[index])
                seen[index] = delivered[index]
            time.sleep(0.02)
        # The measure is over: AT_DONE, when set, is a bash command run now (events.sh reads the service's
        # CPU time there, so reading the events back below is not counted as the deliveries' work).
        at_done = subprocess.run(["bash", "-c", os.environ["AT_DONE"]], capture_output=True, text=True,
                                 timeout=60).stdout.strip() if os.environ.get("AT_DONE") else None
        # 2. Then every event is read (the measure is over) and, should one still be missing, the log is
        #    followed until each has arrived; the logs are read again past their last sequence at the end.
        read_start = time.monotonic()
        read_events()
        read_seconds = time.monotonic() - read_start
        while True:
            follow_log(log)
            if all(event_id in first for event_id in events):
                if read_events() == 0:
                    break
                continue
            if time.monotonic() >= deadline:
                timed_out = True
                errors.append(f"timeout: {sum(1 for e in events if e not in first)} of {len(events)} events "
                              f"not delivered after {timeout:.0f} s")
                break
            time.sleep(0.02)
        time.sleep(0.2)  # repeats the receiver may still log
        follow_log(log)
    conn.close()

    # --- Checks (untimed). ---
    unknown = [d[3] for d in deliveries if d[3] not in events]
    if unknown:
        errors.append(f"{len(unknown)} deliveries of unknown ids, e.g. {unknown[:3]}")
    bad_status = [d for d in deliveries if d[2] != 204]
    if bad_status:
        errors.append(f"{len(bad_status)} deliveries not answered 204, e.g. {bad_status[:2]}")
    unsigned = [d for d in deliveries if "-" in (d[3], d[4], d[5]) or not d[5].startswith("v1,")]
    if unsigned:
        errors.append(f"{len(unsigned)} deliveries without Standard Webhooks headers, e.g. {unsigned[:2]}")
    wrong_url = [d for d in deliveries if d[3] in events and hook_of.get(d[1]) != events[d[3]]["session"]]
    if wrong_url:
        errors.append(f"{len(wrong_url)} deliveries to another session's URL, e.g. {wrong_url[:2]}")
    wrong_length = [d for d in deliveries if d[3] in events and d[6] != str(len(events[d[3]]["body"].encode()))]
    if wrong_length:
        d = wrong_length[0]
        errors.append(f"{len(wrong_length)} bodies differ in length from the rebuilt one, e.g. {d[3]}: "
                      f"{d[6]} vs {len(events[d[3]]['body'].encode())}")
    missing = [e for e in events if e not in first]
    out_of_order = 0
    for index in range(len(sessions)):
        sequences = [events[d[3]]["sequence"] for i, d in enumerate(deliveries)
                     if d[3] in events and first[d[3]] == i and events[d[3]]["session"] == index]
        if sequences != sorted(sequences):
            out_of_order += 1
            errors.append(f"session {index}: first deliveries not in sequence order")

    firsts = sorted((first[e], e) for e in events if e in first)
    rng = random.Random(4)
    sample = [firsts[i][1] for i in sorted(rng.sample(range(len(firsts)), min(SAMPLE, len(firsts))))]
    verified = 0
    for event_id in sample:
        d = deliveries[first[event_id]]
        event = events[event_id]
        signed = {"webhook-id": d[3], "webhook-timestamp": d[4], "webhook-signature": d[5]}
        try:
            Webhook(sessions[event["session"]]["secret"]).verify(event["body"], signed)
            verified += 1
        except WebhookVerificationError as error:
            errors.append(f"signature of {event_id} does not verify: {error}")
    rejected = False
    if sample:
        d = deliveries[first[sample[0]]]
        other = "whsec_" + base64.b64encode(os.urandom(32)).decode()
        try:
            Webhook(other).verify(events[sample[0]]["body"],
                                  {"webhook-id": d[3], "webhook-timestamp": d[4], "webhook-signature": d[5]})
            errors.append("a signature verified with another secret")
        except WebhookVerificationError:
            rejected = True

    # --- Measures. ---
    total = len(events)
    first_times = [deliveries[i][0] for i, _ in firsts]
    first_delivery = min(d[0] for d in deliveries) if deliveries else None
    last_delivery = max(first_times) if first_times else None
    latencies = sorted(deliveries[first[e]][0] - events[e]["timestamp"] for e in events if e in first)
    types = {}
    for event in events.values():
        types[event["type"]] = types.get(event["type"], 0) + 1
    started, finished = client["startedAt"], client["finishedAt"]
    after_done = [t for t in first_times if t > finished]  # the backlog left once no task runs any more

    def rate(count, seconds):
        return round(count / seconds, 1) if seconds and seconds > 0 else None

    print(json.dumps({
        "events": total, "atDone": at_done, "deliveries": len(deliveries), "repeats": len(deliveries) - len(first),
        "missing": len(missing), "types": dict(sorted(types.items())), "eventsReadSeconds": round(read_seconds, 3),
        "bodiesAsApiItems": sum(1 for e in events.values() if e["same"]),
        "firstDeliveryAfterStart": round(first_delivery - started, 3) if first_delivery else None,
        "secondsStartToLastDelivery": round(last_delivery - started, 3) if last_delivery else None,
        "secondsFirstToLastDelivery": round(last_delivery - first_delivery, 3) if last_delivery else None,
        "eventsPerSecondFromStart": rate(total, last_delivery - started) if last_delivery else None,
        "eventsPerSecondDeliveries": rate(total, last_delivery - first_delivery) if last_delivery else None,
        "lastDeliveryAfterTasksDone": round(last_delivery - finished, 3) if last_delivery else None,
        "eventsDeliveredAfterTasksDone": len(after_done),
        "eventsPerSecondAfterTasksDone": rate(len(after_done), last_delivery - finished) if last_delivery else None,
        "latencyP50": round(percentile(latencies, 0.50), 4) if latencies else None,
        "latencyP99": round(percentile(latencies, 0.99), 4) if latencies else None,
        "latencyMax": round(latencies[-1], 4) if latencies else None,
        "signaturesVerified": verified, "signaturesSampled": len(sample), "wrongSecretRejected": rejected,
        "sessionsOutOfOrder": out_of_order, "timedOut": timed_out, "errors": errors[:8],
    }))
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main())
