#!/usr/bin/env bash
# WebSocket echo through urlsessiond's WebSocket task (its API, and the same WebSocket client through its
# relay, `GET /v1/tasks/{id}/socket`) against that client talking to the echo server directly, in one
# run: COUNT text messages of SIZE bytes, one round trip at a time (latency), then
# WINDOW in flight (throughput). The echo server is Tests/Fixtures/websocket_echo.py (the `websockets`
# library, from the venv `make test-deps` makes); the client is Benchmarks/websocket_client.py. Medians of
# REPEATS runs, order rotated.
#
#   Benchmarks/websocket.sh [repeats=3] [count=2000] [size=64] [window=16]
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
REPEATS=${1:-3}
COUNT=${2:-2000}
SIZE=${3:-64}
WINDOW=${4:-16}
source Benchmarks/lib.sh
bench_setup
make -s test-deps >/dev/null
PYTHON=$PWD/.venv/bin/python
CLIENT=$PWD/Benchmarks/websocket_client.py

"$PYTHON" Tests/Fixtures/websocket_echo.py --port-file "$WORK/echo.port" &
ECHO_PID=$!
trap 'kill $ECHO_PID 2>/dev/null || true; bench_cleanup' EXIT
for _ in $(seq 1 100); do [ -s "$WORK/echo.port" ] && break; sleep 0.1; done
ECHO=ws://127.0.0.1:$(cat "$WORK/echo.port")/echo
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 start_service
SESSION=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions" -d '{"configuration":{"kind":"default"}}' | json id)

run_direct() { timeout 300 "$PYTHON" "$CLIENT" direct "$ECHO" "$COUNT" "$SIZE" "$1"; }
run_service() {  # a new webSocket task per run, closed after it
    local task
    task=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions/$SESSION/tasks" \
        -d "{\"kind\":\"webSocket\",\"request\":{\"url\":\"$ECHO\"},\"resume\":true}" | json id)
    timeout 300 "$PYTHON" "$CLIENT" service "$BASE" "$TOKEN" "$task" "$COUNT" "$SIZE" "$1"
    curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/tasks/$task/cancel" -d '{"closeCode":1000}' >/dev/null
}
run_relay() {  # a new webSocket task per run; the client's close frame closes it
    local task
    task=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions/$SESSION/tasks" \
        -d "{\"kind\":\"webSocket\",\"request\":{\"url\":\"$ECHO\"},\"resume\":true}" | json id)
    timeout 300 "$PYTHON" "$CLIENT" relay "$BASE" "$TOKEN" "$task" "$COUNT" "$SIZE" "$1"
}

declare -A RESULTS
for run in $(seq 1 "$REPEATS"); do
    for mode in direct service relay; do
        for window in 1 "$WINDOW"; do
            RESULTS[$mode-$window]="${RESULTS[$mode-$window]:-} $("run_$mode" "$window" | tr -d ' ')"
        done
    done
done

field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }
med() {  # $1 key, $2 field: the median over the runs
    local values=() item
    for item in ${RESULTS[$1]}; do values+=("$(field "$item" "$2")"); done
    median "${values[@]}"
}
echo "WebSocket echo: $COUNT text messages of $SIZE bytes, medians of $REPEATS runs, $(nproc) cores"
echo
echo "| path | in flight | messages/s | round trip p50 (ms) | p99 (ms) | messages/s vs direct |"
echo "|---|---:|---:|---:|---:|---:|"
for window in 1 "$WINDOW"; do
    direct=$(med "direct-$window" messagesPerSecond)
    for mode in direct service relay; do
        rate=$(med "$mode-$window" messagesPerSecond)
        echo "| $mode | $window | $rate | $(med "$mode-$window" p50ms) | $(med "$mode-$window" p99ms) | $(awk -v a="$rate" -v b="$direct" 'BEGIN { printf "%.2f", a / b }') |"
    done
done
