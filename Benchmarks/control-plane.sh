#!/usr/bin/env bash
# Control-plane throughput: wrk against GET /v1/sessions/{id} (authenticated, JSON), side by side with
# nginx serving a static file of the same size on the same machine, in one run.
#
#   Benchmarks/control-plane.sh [seconds=10] [connections=64] [wrk threads=2]
#
# Everything runs on loopback with OS-chosen ports; the service uses a throw-away data directory.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10}
CONNECTIONS=${2:-64}
THREADS=${3:-2}
make -s bench-deps release >/dev/null
BIN=$(swift build -c release --show-bin-path)/urlsessiond
WORK=$(mktemp -d)
TOKEN=bench-token-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
cleanup() {
    [ -n "${SERVICE_PID:-}" ] && kill "$SERVICE_PID" 2>/dev/null && wait "$SERVICE_PID" 2>/dev/null
    [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

"$BIN" serve --host 127.0.0.1 --port 0 --data-dir "$WORK/data" --port-file "$WORK/port" \
    --token "$TOKEN:bench:user" --log-level warning 2>"$WORK/service.log" &
SERVICE_PID=$!
for _ in $(seq 1 200); do [ -s "$WORK/port" ] && break; sleep 0.05; done
PORT=$(cat "$WORK/port")
BASE=http://127.0.0.1:$PORT
SESSION=$(curl -sf -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d '{"configuration":{"kind":"default"},"sessionDescription":"benchmark"}' "$BASE/v1/sessions")
ID=$(printf '%s' "$SESSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
BYTES=$(curl -sf -H "Authorization: Bearer $TOKEN" "$BASE/v1/sessions/$ID" | wc -c)

# nginx on the same loopback, serving a file as large as the session JSON: what this machine can do.
mkdir -p "$WORK/www"
chmod 755 "$WORK" "$WORK/www"  # nginx workers run as www-data
head -c "$BYTES" /dev/zero | tr '\0' 'x' > "$WORK/www/session.json"
cat > "$WORK/nginx.conf" <<CONF
worker_processes 2;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $WORK/tmp; proxy_temp_path $WORK/tmp; fastcgi_temp_path $WORK/tmp;
    uwsgi_temp_path $WORK/tmp; scgi_temp_path $WORK/tmp;
    server { listen 127.0.0.1:0; root $WORK/www; }
}
CONF
mkdir -p "$WORK/tmp"
NGINX_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
sed -i "s/listen 127.0.0.1:0;/listen 127.0.0.1:$NGINX_PORT;/" "$WORK/nginx.conf"
nginx -c "$WORK/nginx.conf" -g 'daemon on;' 2>/dev/null || true

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
if [ -f "$WORK/nginx.pid" ]; then
    run_wrk "nginx static file, same size (reference)" "http://127.0.0.1:$NGINX_PORT/session.json"
fi
echo "service peak RSS: $(awk '/VmHWM/ {print $2, $3}' /proc/$SERVICE_PID/status)"
