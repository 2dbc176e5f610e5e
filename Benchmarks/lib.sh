# Shared by the benchmark scripts (sourced after they `cd` to the package root): the release binary, a
# throw-away directory removed at exit, nginx and the service on loopback with OS-chosen ports, and the
# small helpers every script uses.
#
#   BIN=/path/to/urlsessiond Benchmarks/SCRIPT.sh ...   runs that binary instead of `make release` (for
#                                                        a build made elsewhere, e.g. a separate worktree)
#
# bench_setup sets BIN, WORK, TOKEN and AUTH and installs the EXIT trap that stops whatever the script
# started (PERF_PID, SERVICE_PID, every nginx of NGINX_PIDS) and removes WORK.

NGINX_PIDS=()

bench_setup() {
    if [ -n "${BIN:-}" ]; then
        make -s bench-deps >/dev/null
        [ -x "$BIN" ] || { echo "BIN=$BIN is not an executable file" >&2; exit 1; }
    else
        make -s bench-deps release >/dev/null
        BIN=$(swift build -c release --show-bin-path)/urlsessiond
    fi
    WORK=$(mktemp -d)
    TOKEN=bench-token-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
    AUTH=(-H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json')
    trap bench_cleanup EXIT
    trap 'exit 130' INT TERM
}

stop_pid() {  # $1 pid, $2 signal: ask, then wait at most 15 s, then kill
    local pid=$1 signal=${2:-TERM}
    kill -0 "$pid" 2>/dev/null || return 0
    kill -s "$signal" "$pid" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

bench_cleanup() {
    [ -n "${PERF_PID:-}" ] && stop_pid "$PERF_PID" INT
    [ -n "${SERVICE_PID:-}" ] && stop_pid "$SERVICE_PID" TERM
    local pid
    for pid in "${NGINX_PIDS[@]}"; do stop_pid "$pid" QUIT; done
    rm -rf "$WORK"
}

now() { printf '%s' "$EPOCHREALTIME"; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
json() { python3 -c 'import json,sys; v=json.load(sys.stdin)
for k in sys.argv[1].split("."): v = v[k] if v is not None else None
print("null" if v is None else v)' "$1"; }
fail() { echo "FAILED: $*" >&2; [ -f "$WORK/service.log" ] && tail -n 20 "$WORK/service.log" >&2; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# start_nginx NAME WORKERS PROBE_URL <<CONF ... CONF
# Runs nginx (in the foreground, as a child: its pid joins NGINX_PIDS) with $WORK/NAME.conf: pid file,
# error log ($WORK/NAME-error.log) and temp paths in WORK, around the http-level directives read from
# stdin (the servers included). Returns 0 once PROBE_URL answers 2xx, 1 if it does not within 5 s.
# NGINX_NETNS=NAME runs it in that network namespace (`ip netns exec`, which execs: the pid is nginx's).
start_nginx() {
    local name=$1 workers=$2 probe=$3
    mkdir -p "$WORK/tmp"
    chmod 755 "$WORK"  # nginx workers run as www-data
    {
        cat <<CONF
worker_processes $workers;
pid $WORK/$name.pid;
error_log $WORK/$name-error.log;
events { worker_connections 4096; }
http {
    client_body_temp_path $WORK/tmp; proxy_temp_path $WORK/tmp; fastcgi_temp_path $WORK/tmp;
    uwsgi_temp_path $WORK/tmp; scgi_temp_path $WORK/tmp;
CONF
        sed 's/^/    /'
        echo '}'
    } > "$WORK/$name.conf"
    ${NGINX_NETNS:+ip netns exec "$NGINX_NETNS"} nginx -c "$WORK/$name.conf" -g 'daemon off;' 2>>"$WORK/$name-error.log" &
    NGINX_PIDS+=($!)
    for _ in $(seq 1 100); do curl -sf --max-time 1 -o /dev/null "$probe" && return 0; sleep 0.05; done
    curl -sf --max-time 1 -o /dev/null "$probe"
}

# start_receiver NAME PORT LOG_FORMAT: a webhook receiver, nginx with one worker (so its log's order is the
# order of the answers) on 127.0.0.1:PORT that answers every POST under /hooks/ 204 (reading and discarding the
# body, the connection kept alive) and writes one line per POST to $WORK/hooks.log in LOG_FORMAT (nginx
# variables, e.g. '$status $content_length'). Sets RECEIVER_PID.
start_receiver() {
    start_nginx "$1" 1 "http://127.0.0.1:$2/ready" <<CONF || fail "receiver nginx did not start: $(cat "$WORK/$1-error.log")"
access_log off;
keepalive_requests 1000000;
log_format hooks '$3';
server {
    listen 127.0.0.1:$2;
    location /hooks/ { access_log $WORK/hooks.log hooks buffer=64k flush=50ms; return 204; }
    location = /ready { return 204; }
}
CONF
    RECEIVER_PID=${NGINX_PIDS[-1]}
}

# small_files COUNT: COUNT files of 1 KiB of random bytes, $WORK/www/small/0 … COUNT-1, readable by nginx's
# workers (www-data), for the small-task benchmarks' origin.
small_files() {
    mkdir -p "$WORK/www/small"
    chmod 755 "$WORK" "$WORK/www" "$WORK/www/small"
    python3 -c 'import os, sys
for i in range(int(sys.argv[2])):
    with open(f"{sys.argv[1]}/{i}", "wb") as f: f.write(os.urandom(1024))' "$WORK/www/small" "$1"
}

# start_origin PROBE_PATH: the origin nginx (2 workers, sendfile) serving $WORK/www on NGINX_PORT (an
# OS-chosen one when unset); sets ORIGIN. The files are the caller's (directories readable by www-data).
# ORIGIN_SERVER (optional) adds directives to its server block, e.g. an access_log or a location.
start_origin() {
    NGINX_PORT=${NGINX_PORT:-$(free_port)}
    ORIGIN=http://127.0.0.1:$NGINX_PORT
    start_nginx nginx 2 "$ORIGIN/$1" <<CONF || fail "nginx did not start: $(cat "$WORK/nginx-error.log")"
access_log off;
sendfile on;
tcp_nopush on;
gzip off;
default_type application/octet-stream;
server { listen 127.0.0.1:$NGINX_PORT; root $WORK/www;${ORIGIN_SERVER:+ $ORIGIN_SERVER} }
CONF
}

# start_service [ARG...]: `urlsessiond serve` on 127.0.0.1 with an OS-chosen port, WORK/data and the
# bench token (variables assigned before the call, e.g. URLSESSIOND_MAX_TRANSFERS=16 start_service, are
# in its environment); extra arguments go to `serve`. Sets SERVICE_PID and BASE.
start_service() {
    "$BIN" serve --host 127.0.0.1 --port 0 --data-dir "$WORK/data" --port-file "$WORK/port" \
        --token "$TOKEN:bench:user" --log-level "${LOG_LEVEL:-warning}" "$@" 2>"$WORK/service.log" &
    SERVICE_PID=$!
    for _ in $(seq 1 200); do [ -s "$WORK/port" ] && break; sleep 0.05; done
    [ -s "$WORK/port" ] || fail "urlsessiond did not start"
    BASE=http://127.0.0.1:$(cat "$WORK/port")
}

cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }  # PID's CPU so far: clock ticks, user + system

# thread_ticks PID: one line per thread of PID, "name ticks" — the kernel's name (`engine`, `webhooks`,
# `MHD-worker`, libdispatch's `oot.default-qos` for the concurrency pool; a space in one becomes _) and its
# CPU so far in clock ticks (user + system).
thread_ticks() {
    local task
    for task in /proc/"$1"/task/*; do
        printf '%s %s\n' "$(tr ' ' '_' < "$task/comm" 2>/dev/null)" "$(awk '{ print $14 + $15 }' "$task/stat" 2>/dev/null)"
    done
}

# cpu_by_thread BEFORE AFTER COUNT: from two thread_ticks outputs, each name's CPU per COUNT (a task, a
# POST) in µs, threads of one name together, the largest first: "webhooks 72 µs, oot.default-qos 53 µs, …".
cpu_by_thread() {
    awk -v n="$3" -v hz="$(getconf CLK_TCK)" 'NR == FNR { before[$1] += $2; next } { after[$1] += $2 }
        END { for (k in after) { d = after[k] - before[k]; if (d > 0) printf "%s %.0f µs\n", k, d / hz / n * 1e6 } }' \
        <(echo "$1") <(echo "$2") | sort -k2 -rn | paste -sd ',' | sed 's/,/, /g'
}

rss() { awk '/^VmHWM/ { printf "%d", $2 / 1024 }' "/proc/$SERVICE_PID/status"; }  # MiB
reset_peak() { { echo 5 > "/proc/$SERVICE_PID/clear_refs"; } 2>/dev/null || echo "(VmHWM could not be reset: peaks are cumulative)"; }
