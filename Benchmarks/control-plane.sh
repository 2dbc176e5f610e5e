#!/usr/bin/env bash
# Control-plane throughput: wrk against GET /v1/sessions/{id} (authenticated, JSON), side by side with
# nginx serving a static file of the same size on the same machine, in one run; then the task reads —
# GET /v1/tasks/{id} of a completed task and of a running (rate-limited, slow) one, the session's task list
# and the completed task's events page — each answered from a task made against that nginx.
#
#   Benchmarks/control-plane.sh [seconds=10] [connections=64] [wrk threads=2]
#
# Everything runs on loopback with OS-chosen ports; the service uses a throw-away data directory.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10}
CONNECTIONS=${2:-64}
THREADS=${3:-2}
source Benchmarks/lib.sh
bench_setup  # BIN (or `make release`), WORK, TOKEN, AUTH; stops what was started and removes WORK at exit

# The task reads' tasks fetch from the nginx below, on loopback (refused by the default egress policy).
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 start_service
ID=$(curl -sf -X POST "${AUTH[@]}" -d '{"configuration":{"kind":"default"},"sessionDescription":"benchmark"}' \
    "$BASE/v1/sessions" | json id)
BYTES=$(curl -sf -H "Authorization: Bearer $TOKEN" "$BASE/v1/sessions/$ID" | wc -c)

# nginx on the same loopback, serving a file as large as the session JSON: what this machine can do.
mkdir -p "$WORK/www"
chmod 755 "$WORK" "$WORK/www"  # nginx workers run as www-data
head -c "$BYTES" /dev/zero | tr '\0' 'x' > "$WORK/www/session.json"
mkdir -p "$WORK/www/slow"
head -c 65536 /dev/zero > "$WORK/www/small.bin"
head -c 67108864 /dev/zero > "$WORK/www/slow/large.bin"
NGINX_PORT=$(free_port)
NGINX_OK=
start_nginx nginx 2 "http://127.0.0.1:$NGINX_PORT/session.json" <<CONF && NGINX_OK=1
access_log off;
server {
    listen 127.0.0.1:$NGINX_PORT; root $WORK/www;
    location /slow/ { limit_rate 1k; }  # the running task's body: it lasts far longer than the run
}
CONF

run_wrk() {  # $1 label, $2 url, $3.. extra wrk args
    local label=$1 url=$2; shift 2
    local out rps
    out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@" "$url")
    rps=$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')
    p99=$(printf '%s\n' "$out" | awk '$1=="99%" {print $2}')
    errors=$(printf '%s\n' "$out" | awk '/Non-2xx|Socket errors/ {print}' | tr '\n' ' ')
    printf '%-46s %12s req/s   p99 %-8s %s\n' "$label" "$rps" "$p99" "$errors"
}

echo "GET /v1/sessions/{id} (${BYTES} B JSON), wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, $(nproc) cores"
run_wrk "urlsessiond GET /v1/sessions/{id}" "$BASE/v1/sessions/$ID" -H "Authorization: Bearer $TOKEN"
run_wrk "urlsessiond GET /healthz (no auth, no JSON)" "$BASE/healthz"
if [ -n "$NGINX_OK" ]; then
    run_wrk "nginx static file, same size (reference)" "http://127.0.0.1:$NGINX_PORT/session.json"
fi
if [ -n "$NGINX_OK" ]; then
    TASKS=$(curl -sf -X POST "${AUTH[@]}" -d '{"configuration":{"kind":"default"},"sessionDescription":"tasks"}' \
        "$BASE/v1/sessions" | json id)
    DONE=$(curl -sf -X POST "${AUTH[@]}" "$BASE/v1/sessions/$TASKS/tasks?wait=30" \
        -d "{\"kind\":\"data\",\"resume\":true,\"request\":{\"url\":\"http://127.0.0.1:$NGINX_PORT/small.bin\"}}" | json id)
    [ "$(curl -sf -H "Authorization: Bearer $TOKEN" "$BASE/v1/tasks/$DONE" | json state)" = completed ] \
        || fail "the completed task did not complete"
    RUNNING=$(curl -sf -X POST "${AUTH[@]}" "$BASE/v1/sessions/$TASKS/tasks" \
        -d "{\"kind\":\"download\",\"resume\":true,\"request\":{\"url\":\"http://127.0.0.1:$NGINX_PORT/slow/large.bin\"}}" | json id)
    sleep 1
    [ "$(curl -sf -H "Authorization: Bearer $TOKEN" "$BASE/v1/tasks/$RUNNING" | json state)" = running ] \
        || fail "the slow task is not running"
    echo "task reads ($(curl -sf -H "Authorization: Bearer $TOKEN" "$BASE/v1/tasks/$DONE" | wc -c) B completed task JSON)"
    run_wrk "urlsessiond GET /v1/tasks/{id} (completed)" "$BASE/v1/tasks/$DONE" -H "Authorization: Bearer $TOKEN"
    run_wrk "urlsessiond GET /v1/tasks/{id} (running)" "$BASE/v1/tasks/$RUNNING" -H "Authorization: Bearer $TOKEN"
    run_wrk "urlsessiond GET /v1/sessions/{id}/tasks (2)" "$BASE/v1/sessions/$TASKS/tasks" -H "Authorization: Bearer $TOKEN"
    run_wrk "urlsessiond GET /v1/tasks/{id}/events (done)" "$BASE/v1/tasks/$DONE/events" -H "Authorization: Bearer $TOKEN"
fi
echo "service peak RSS: $(awk '/VmHWM/ {print $2, $3}' /proc/$SERVICE_PID/status)"
