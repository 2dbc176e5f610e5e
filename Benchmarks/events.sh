#!/usr/bin/env bash
# Delegate events delivered per second: webhooks (signed, at least once, in order per session) to a local
# receiver while many small tasks run.
#
#   Benchmarks/events.sh [sessions=8] [tasks=2000] [parallel=16]
#
# 1. An origin nginx serving TASKS files of 1 KiB (as transfers.sh), and a receiver: a second nginx with
#    one worker whose `location /hooks/` answers every POST 204 (`return 204`: nginx reads and discards
#    the body, the connection stays alive) and writes one access-log line per POST: `$msec`, the URI, the
#    status and the `webhook-id`, `webhook-timestamp`, `webhook-signature` and `Content-Length` headers.
#    One worker, so the log's order is the order in which the POSTs were answered.
# 2. The service (URLSESSIOND_MAX_TRANSFERS=PARALLEL, loopback allowed) with SESSIONS sessions, each with
#    `httpMaximumConnectionsPerHost` PARALLEL, no URL cache and a delegate
#    `{"url": RECEIVER/hooks/N, "secret": "whsec_<32 random bytes>", "progressInterval": 0.5}`.
# 3. Benchmarks/transfers_client.py creates TASKS data tasks with `"resume": true`, round-robin over the
#    sessions, from CLIENT_CONNECTIONS keep-alive connections (default 8), and waits until none is
#    running; Benchmarks/events_check.py then follows the receiver's log until each session's event
#    log is delivered (TIMEOUT seconds at most, default 300), asking the service only `events?after=N
#    &limit=1` for a session whose deliveries pause, and reads every event through the API afterwards.
#    Times come from the client's clock (first create) and the receiver's `$msec` (deliveries).
# 4. Reported: events, events/s from the first create to the last delivery and from the first delivery
#    to the last, how long delivery lagged behind the tasks (and the rate at which the backlog left
#    when the last task completed went out), tasks/s, delivery latency (the event's `timestamp` to the receiver's log line, by
#    `webhook-id`), the service's peak RSS (VmHWM) and CPU time (first create → last delivery). Checked, untimed,
#    after the last delivery: every task completed with its 1 KiB (transfers_client.py), and by events_check.py:
#    every event delivered at least once (204, its session's URL, signed), first deliveries in sequence
#    order per session, body lengths, and 20 signatures with the `standardwebhooks` package of .venv
#    (`make test-deps`).
#
# PROFILE=DIR: `perf record -g` of the service from the first create until every event is delivered, left in
# DIR (perf-events.data, and perf-events.txt: the symbols by self time and the threads by samples).
# PERF_CALLGRAPH="--call-graph dwarf,16384" in place of -g also resolves libsqlite3 and the other libraries
# built without frame pointers (a larger file, slower to report).
#
# URLSESSIOND_DATABASE_URL=postgres://… in the environment runs the service on that PostgreSQL database
# (give each run a fresh one): the service inherits it, as every other URLSESSIOND_ variable.
#
# Everything runs on loopback with OS-chosen ports in a throw-away directory that is removed at the end.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
SESSIONS=${1:-8}
TASKS=${2:-2000}
PARALLEL=${3:-16}
CLIENT_CONNECTIONS=${CLIENT_CONNECTIONS:-8}
TIMEOUT=${TIMEOUT:-300}
PROFILE=${PROFILE:-}
source Benchmarks/lib.sh
bench_setup  # BIN (or `make release`), WORK, TOKEN, AUTH; stops what was started and removes WORK at exit
CLIENT=$PWD/Benchmarks/transfers_client.py
CHECK=$PWD/Benchmarks/events_check.py
VENV_PYTHON=$PWD/.venv/bin/python
"$VENV_PYTHON" -c 'import standardwebhooks' 2>/dev/null || fail "no standardwebhooks in .venv: run make test-deps"

# --- Origin: nginx serving the small files. ---
small_files "$TASKS"
start_origin small/0

# --- Receiver: 204 to every POST under /hooks/, one log line each. ---
RECEIVER_PORT=$(free_port)
RECEIVER=http://127.0.0.1:$RECEIVER_PORT
start_receiver receiver "$RECEIVER_PORT" \
    '$msec $request_uri $status $http_webhook_id $http_webhook_timestamp $http_webhook_signature $content_length'

sync  # the origin's files are written out before anything is measured
# --- The service and its sessions. ---
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 URLSESSIOND_MAX_TRANSFERS=$PARALLEL URLSESSIOND_TENANT_MAX_TRANSFERS=$PARALLEL start_service
IDS=
echo '[' > "$WORK/sessions.json"
for n in $(seq 0 $((SESSIONS - 1))); do
    secret=whsec_$(head -c 32 /dev/urandom | base64 -w0)
    id=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions" -d "{\"configuration\":{\"kind\":\"default\",
        \"httpMaximumConnectionsPerHost\":$PARALLEL,\"urlCache\":null},\"sessionDescription\":\"benchmark\",
        \"delegate\":{\"url\":\"$RECEIVER/hooks/$n\",\"secret\":\"$secret\",\"progressInterval\":0.5}}" | json id) \
        || fail "creating session $n"
    IDS=${IDS:+$IDS,}$id
    printf '%s{"id": "%s", "secret": "%s", "hook": "/hooks/%d"}\n' "$([ "$n" = 0 ] || echo ,)" "$id" "$secret" "$n" \
        >> "$WORK/sessions.json"
done
echo ']' >> "$WORK/sessions.json"

RECEIVER_WORKER=$(pgrep -P "$RECEIVER_PID" | head -n 1)
CPU_SERVICE0=$(cpu "$SERVICE_PID"); CPU_RECEIVER0=$(cpu "$RECEIVER_WORKER")
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

# --- The run: tasks, then every event delivered. ---
PERF_PID=
if [ -n "$PROFILE" ]; then
    mkdir -p "$PROFILE"
    perf record -F 999 ${PERF_CALLGRAPH:--g} -p "$SERVICE_PID" -o "$PROFILE/perf-events.data" 2>/dev/null &
    PERF_PID=$!
fi
# The client's check of every task, and events_check's reading of every event through the API, would
# compete with the deliveries still under way and be counted as their CPU: the tasks are checked after the
# last delivery (VERIFY=only), and the CPU times are read when it arrives (AT_DONE), as is the profile's end.
VERIFY=0 timeout $((TIMEOUT + 60)) python3 "$CLIENT" "$BASE" "$TOKEN" "$IDS" "$ORIGIN/small/" "$TASKS" \
    "$CLIENT_CONNECTIONS" data "$TIMEOUT" 1024 > "$WORK/client.json" || fail "tasks: $(cat "$WORK/client.json")"
AT_DONE="awk '{ printf \"%d \", \$14 + \$15 }' /proc/$SERVICE_PID/stat /proc/$RECEIVER_WORKER/stat; ${PERF_PID:+kill -INT $PERF_PID}" \
    timeout $((TIMEOUT + 120)) "$VENV_PYTHON" "$CHECK" "$BASE" "$TOKEN" "$WORK/sessions.json" "$WORK/hooks.log" \
    "$WORK/client.json" "$TIMEOUT" > "$WORK/events.json" || fail "events: $(cat "$WORK/events.json")"
VERIFY=only timeout $((TIMEOUT + 60)) python3 "$CLIENT" "$BASE" "$TOKEN" "$IDS" "$ORIGIN/small/" "$TASKS" \
    "$CLIENT_CONNECTIONS" data "$TIMEOUT" 1024 > "$WORK/verify.json" || fail "tasks: $(cat "$WORK/verify.json")"
if [ -n "$PERF_PID" ]; then
    wait "$PERF_PID" || true
    { perf report -i "$PROFILE/perf-events.data" --stdio -g none --sort sym 2>/dev/null | grep -v '^#' | head -n 60 || true
      perf report -i "$PROFILE/perf-events.data" --stdio -g none --sort comm 2>/dev/null | grep -v '^#' | head -n 20 || true
    } | swift demangle --simplified > "$PROFILE/perf-events.txt"
    echo "  profile: $PROFILE/perf-events.txt (and .data)" >&2
fi
TICKS=$(getconf CLK_TCK)
read -r CPU_SERVICE1 CPU_RECEIVER1 < <(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["atDone"])' "$WORK/events.json")
CPU_SERVICE=$(awk -v a="$CPU_SERVICE1" -v b="$CPU_SERVICE0" -v t="$TICKS" 'BEGIN { printf "%.1f", (a - b) / t }')
CPU_RECEIVER=$(awk -v a="$CPU_RECEIVER1" -v b="$CPU_RECEIVER0" -v t="$TICKS" 'BEGIN { printf "%.1f", (a - b) / t }')
RSS_PEAK=$(rss)

# --- Results. ---
python3 - "$WORK/client.json" "$WORK/events.json" "$SESSIONS" "$TASKS" "$PARALLEL" "$CLIENT_CONNECTIONS" \
    "$RSS_PEAK" "$CPU_SERVICE" "$CPU_RECEIVER" "$LOAD" "$(nproc)" <<'PY'
import json, sys
client, events = (json.load(open(p)) for p in sys.argv[1:3])
sessions, tasks, parallel, connections, rss, cpu_service, cpu_receiver, load, cores = sys.argv[3:12]
e = events
print(f"Delegate events: {tasks} data tasks of 1 KiB over {sessions} sessions ({parallel} transfers at once), "
      f"every event POSTed to a local nginx; {cores} cores, load average {load} at the start")
print()
print("| what | value |")
print("|---|---:|")
print(f"| tasks: first create → none running | {client['seconds']:.3f} s, **{int(tasks) / client['seconds']:,.0f} tasks/s** |")
types = ", ".join(f"{k} {v}" for k, v in e["types"].items())
print(f"| events recorded (sum of the sessions' last `sequence`) | {e['events']:,} ({e['events'] / int(tasks):.2f} per task) |")
print(f"| deliveries (POSTs answered 204) | {e['deliveries']:,} ({e['repeats']} repeated) |")
print(f"| events/s, first create → last delivery | **{e['eventsPerSecondFromStart']:,.0f}** "
      f"({e['secondsStartToLastDelivery']:.3f} s) |")
print(f"| events/s, first delivery → last delivery | **{e['eventsPerSecondDeliveries']:,.0f}** "
      f"({e['secondsFirstToLastDelivery']:.3f} s) |")
lag = e["lastDeliveryAfterTasksDone"]
print(f"| last delivery after the last task completed | "
      f"{f'{lag * 1000:,.0f} ms' if lag > 0 else '0 ms (kept up: before the client saw the last completion)'} |")
if e["eventsDeliveredAfterTasksDone"] >= 100:
    print(f"| events/s once no task runs (the backlog of {e['eventsDeliveredAfterTasksDone']:,} events) | "
          f"{e['eventsPerSecondAfterTasksDone']:,.0f} |")
print(f"| delivery latency (event `timestamp` → receiver), p50 / p99 / max | "
      f"{e['latencyP50'] * 1000:.0f} / {e['latencyP99'] * 1000:.0f} / {e['latencyMax'] * 1000:.0f} ms |")
print(f"| service peak RSS (VmHWM) | {rss} MiB |")
print(f"| CPU time, service / receiver nginx | {cpu_service} s / {cpu_receiver} s |")
print()
print(f"Events by type: {types}. Reading them through the API afterwards (untimed) took "
      f"{e['eventsReadSeconds']:.2f} s.")
print(f"Checks: {e['events'] - e['missing']}/{e['events']} events delivered at least once, all 204, to their "
      f"session's URL, signed; first deliveries in sequence order in {int(sessions) - e['sessionsOutOfOrder']}/"
      f"{sessions} sessions; every body's length matches the event; {e['signaturesVerified']}/"
      f"{e['signaturesSampled']} sampled signatures verify with standardwebhooks "
      f"(another secret: {'rejected' if e['wrongSecretRejected'] else 'NOT rejected'}).")
PY
