#!/usr/bin/env bash
# CPU per API request: 2,000 requests sent by `curl --parallel` (16 at a time) to the service, twice each:
# `GET /v1/sessions/{id}` (the HTTP path alone) and `POST /v1/sessions/{id}/tasks` of a suspended task
# (decode, validation, one durable row and its event, the answer). Prints requests/s, the service's CPU
# per request (from /proc/PID/stat) and the sending curl's (from /usr/bin/time).
#
#   BIN=/path/to/urlsessiond Benchmarks/request_cost.sh [requests=2000]
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
N=${1:-2000}
source Benchmarks/lib.sh
bench_setup
start_service
SESSION=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions" -d '{"configuration":{"kind":"default"}}' | json id)
for i in $(seq 1 "$N"); do
    printf 'next\nurl = "%s/v1/sessions/%s"\nheader = "Authorization: Bearer %s"\noutput = "/dev/null"\n' "$BASE" "$SESSION" "$TOKEN"
done > "$WORK/get.curl"
for i in $(seq 1 "$N"); do
    printf 'next\nurl = "%s/v1/sessions/%s/tasks"\nheader = "Authorization: Bearer %s"\nheader = "Content-Type: application/json"\n' "$BASE" "$SESSION" "$TOKEN"
    printf 'data = "{\\"kind\\":\\"data\\",\\"request\\":{\\"url\\":\\"http://127.0.0.1:9/%d\\"}}"\noutput = "/dev/null"\n' "$i"
done > "$WORK/post.curl"
for kind in get post get post; do
    cpu0=$(cpu "$SERVICE_PID"); t0=$(now)
    /usr/bin/time -f "%U %S" -o "$WORK/curl-time" curl --parallel --parallel-max 16 -sSf --no-progress-meter -K "$WORK/$kind.curl"
    t1=$(now); cpu1=$(cpu "$SERVICE_PID")
    echo "$kind: $(minus "$t1" "$t0") s, $(awk -v n="$N" -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", n / (b - a) }') requests/s;" \
        "service CPU $(( (cpu1 - cpu0) * 1000000 / $(getconf CLK_TCK) / N )) us/request;" \
        "curl CPU $(awk -v n="$N" '{ printf "%d", ($1 + $2) * 1e6 / n }' "$WORK/curl-time") us/request"
done
