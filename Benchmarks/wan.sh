#!/usr/bin/env bash
# A download over an emulated WAN: curl, aria2c with 8 connections, and urlsessiond on one connection and
# segmented, side by side in one run.
#
#   Benchmarks/wan.sh [size MiB=256] [repeats=1] [rate per connection=2m] [RTT ms=50] [segments=8]
#
# (`wan.sh 1024 3 0 0` is the same comparison on the bare link: no rate cap, no added latency.)
#
# The link: nginx serves a file of random bytes with `limit_rate RATE` (nginx's per-request cap, what a
# CDN or a busy server hands one connection), in a network namespace of its own behind a veth pair when
# this runs as root (NETNS=0: on loopback); between it and every client, Benchmarks/latency_proxy.py
# delays each byte by RTT/2 in each direction (this kernel has no netem qdisc, so the round trip is
# emulated in user space). Every client reaches the file through the proxy on 127.0.0.1 (RTT 0: the
# origin directly).
#
# The peers, each writing the file to disk, checked (SHA-256) and deleted after its run, untimed:
#   curl       `curl -s -o FILE URL`
#   aria2      `aria2c -x8 -s8` (8 connections; its defaults: 20 MiB minimum split, `prealloc`)
#   aria2k     `aria2c -x8 -s8 -k1M --file-allocation=falloc` (splits down to 1 MiB, space by fallocate)
#   single     a urlsessiond download task, timed from its creation (`?wait=300`) to its completion
#   segmented  the same with `"segments": {"max": SEGMENTS, "minSize": 1048576}`
# The order rotates between repeats; the median of each is reported, with the ratios of the same run.
# METRICS_DIR=DIR keeps each urlsessiond task's metrics (one transaction per request) there.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
SIZE_MIB=${1:-256}
REPEATS=${2:-1}
RATE=${3:-2m}
RTT_MS=${4:-50}
SEGMENTS=${5:-8}
source Benchmarks/lib.sh
bench_setup  # BIN (or `make release`), WORK, TOKEN, AUTH; stops what was started and removes WORK at exit
command -v aria2c >/dev/null || fail "aria2c is missing (make bench-deps)"

# --- The origin: nginx with a per-request rate cap, in its own network namespace when possible. ---
NETNS_NAME=
ORIGIN_HOST=127.0.0.1
wan_cleanup() {
    [ -n "${PROXY_PID:-}" ] && stop_pid "$PROXY_PID" TERM
    bench_cleanup
    if [ -n "$NETNS_NAME" ]; then ip link del "$NETNS_NAME-h" 2>/dev/null || true; ip netns del "$NETNS_NAME" 2>/dev/null || true; fi
}
trap wan_cleanup EXIT
if [ "${NETNS:-1}" = 1 ] && [ "$(id -u)" = 0 ] && ip netns add "uwan$$" 2>/dev/null; then
    NETNS_NAME=uwan$$
    # 10.77.x.0/30 from the pid, so two runs at once do not collide.
    subnet=10.77.$(($$ % 250)).
    ip link add "$NETNS_NAME-h" type veth peer name "$NETNS_NAME-o"
    ip link set "$NETNS_NAME-o" netns "$NETNS_NAME"
    ip addr add "${subnet}1/30" dev "$NETNS_NAME-h"
    ip link set "$NETNS_NAME-h" up
    ip netns exec "$NETNS_NAME" ip addr add "${subnet}2/30" dev "$NETNS_NAME-o"
    ip netns exec "$NETNS_NAME" ip link set "$NETNS_NAME-o" up
    ip netns exec "$NETNS_NAME" ip link set lo up
    ORIGIN_HOST=${subnet}2
    export NGINX_NETNS=$NETNS_NAME
fi
mkdir -p "$WORK/www" "$WORK/out"
chmod 755 "$WORK" "$WORK/www"  # nginx workers run as www-data
BYTES=$((SIZE_MIB * 1048576))
head -c "$BYTES" /dev/urandom > "$WORK/www/big.bin"
SHA=$(sha256sum "$WORK/www/big.bin" | cut -d' ' -f1)  # also reads it into the page cache
echo ok > "$WORK/www/probe"
NGINX_PORT=$(free_port)
start_nginx nginx 2 "http://$ORIGIN_HOST:$NGINX_PORT/probe" <<CONF || fail "nginx did not start: $(cat "$WORK/nginx-error.log")"
access_log $WORK/access.log;
sendfile on;
tcp_nopush on;
gzip off;
keepalive_requests 100000;
default_type application/octet-stream;
server { listen $ORIGIN_HOST:$NGINX_PORT; root $WORK/www; limit_rate $RATE; }
CONF

# --- The link: every byte waits RTT/2 each way (RTT 0: no proxy, the origin directly). ---
URL=http://$ORIGIN_HOST:$NGINX_PORT/big.bin
if [ "$RTT_MS" != 0 ]; then
    python3 Benchmarks/latency_proxy.py 0 "$ORIGIN_HOST:$NGINX_PORT" "$(awk -v r="$RTT_MS" 'BEGIN { print r / 2 }')" "$WORK/proxy-port" &
    PROXY_PID=$!
    for _ in $(seq 1 100); do [ -s "$WORK/proxy-port" ] && break; sleep 0.05; done
    [ -s "$WORK/proxy-port" ] || fail "the latency proxy did not start"
    URL=http://127.0.0.1:$(cat "$WORK/proxy-port")/big.bin
fi
probe=$(curl -s -o /dev/null -w '%{time_starttransfer} %{http_code}' -r 0-0 "$URL" || true)
[ "${probe#* }" = 206 ] || fail "the origin does not answer ranges: $probe"

# --- The service: a session whose httpMaximumConnectionsPerHost lets every segment have a connection. ---
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8,$ORIGIN_HOST/32 start_service
SESSION=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions" \
    -d "{\"configuration\":{\"kind\":\"default\",\"urlCache\":null,\"httpMaximumConnectionsPerHost\":$((SEGMENTS > 6 ? SEGMENTS : 6))},
        \"sessionDescription\":\"wan benchmark\"}" | json id)

run_curl() { timeout 900 curl -sf -o "$WORK/out/big.bin" "$URL" || fail "curl"; }
aria2() { timeout 900 aria2c -x8 -s8 "$@" -d "$WORK/out" -o big.bin --allow-overwrite=true --summary-interval=0 -q "$URL" || fail "aria2c $*"; }
run_aria2() { aria2; }
run_aria2k() { aria2 -k1M --file-allocation=falloc; }
usd() {  # $1 the task body's extra fields; waits (300 s at a time, `?wait=` allows no more) for the end.
    # Only curl runs in the timed region: the id and the state are read with sed and grep, not Python.
    timeout 330 curl -sf "${AUTH[@]}" -X POST "$BASE/v1/sessions/$SESSION/tasks?wait=300" \
        -d "{\"kind\":\"download\",\"request\":{\"url\":\"$URL\"},\"resume\":true$1}" > "$WORK/task.json" || fail "urlsessiond: create"
    local id
    id=$(sed 's/.*"id":"\(tsk_[0-9A-Za-z]*\)".*/\1/' "$WORK/task.json")
    for _ in 1 2 3; do
        grep -q '"state":"completed"' "$WORK/task.json" && return
        timeout 330 curl -sf "${AUTH[@]}" "$BASE/v1/tasks/$id?wait=300" > "$WORK/task.json" || fail "urlsessiond: wait"
    done
}
run_single() { usd ''; }
run_segmented() { usd ",\"segments\":{\"max\":$SEGMENTS,\"minSize\":1048576}"; }
verify() {  # untimed
    case $1 in
    single | segmented)
        local id
        id=$(json id < "$WORK/task.json")
        [ "$(json state < "$WORK/task.json")" = completed ] && [ "$(json error < "$WORK/task.json")" = null ] \
            && [ "$(json countOfBytesReceived < "$WORK/task.json")" = "$BYTES" ] || fail "$1: $(head -c 600 "$WORK/task.json")"
        [ "$(timeout 120 curl -sf "${AUTH[@]}" "$BASE/v1/tasks/$id/file" | sha256sum | cut -d' ' -f1)" = "$SHA" ] \
            || fail "$1: sha256 of /v1/tasks/$id/file differs"
        curl -sf --max-time 30 "${AUTH[@]}" "$BASE/v1/tasks/$id/metrics" > "$WORK/metrics.json" || fail "$1: metrics"
        [ -n "${METRICS_DIR:-}" ] && cp "$WORK/metrics.json" "$METRICS_DIR/metrics-$1-$(date +%s).json"
        TRANSACTIONS[$1]=$(python3 -c 'import json,sys; m=json.load(sys.stdin)["transactionMetrics"]; print(len(m), len({t["localPort"] for t in m}))' \
            < "$WORK/metrics.json")
        curl -sf --max-time 30 "${AUTH[@]}" -X DELETE "$BASE/v1/tasks/$id/file" || fail "DELETE file"
        ;;
    *)
        [ "$(sha256sum "$WORK/out/big.bin" | cut -d' ' -f1)" = "$SHA" ] || fail "$1: output differs"
        rm -f "$WORK/out/big.bin" "$WORK/out/big.bin.aria2"
        ;;
    esac
}

declare -A SECONDS_OF TRANSACTIONS
TOOLS=(curl aria2 aria2k single segmented)
echo "WAN: $SIZE_MIB MiB, nginx limit_rate $RATE per request${NETNS_NAME:+ (origin in network namespace $NETNS_NAME)}, RTT $RTT_MS ms (first byte of a range: ${probe% *} s), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
for run in $(seq 1 "$REPEATS"); do
    line="  run $run:"
    for k in "${!TOOLS[@]}"; do
        tool=${TOOLS[$(((run - 1 + k) % ${#TOOLS[@]}))]}
        sync
        t0=$(now); "run_$tool"; t1=$(now)
        verify "$tool"
        s=$(minus "$t1" "$t0")
        SECONDS_OF[$tool]="${SECONDS_OF[$tool]:-} $s"
        line="$line $tool ${s}s"
    done
    echo "$line"
done

label() {
    case $1 in
    curl) echo '`curl -s -o FILE`' ;;
    aria2) echo '`aria2c -x8 -s8`' ;;
    aria2k) echo '`aria2c -x8 -s8 -k1M --file-allocation=falloc`' ;;
    single) echo 'urlsessiond download task, one connection' ;;
    segmented) echo "urlsessiond download task, \`segments\` max $SEGMENTS" ;;
    esac
}
echo
echo "| tool | median seconds | throughput | vs curl | vs aria2c -x8 -s8 | vs aria2c … -k1M | requests, connections |"
echo "|---|---:|---:|---:|---:|---:|---:|"
mc=$(median ${SECONDS_OF[curl]})
ma=$(median ${SECONDS_OF[aria2]})
mk=$(median ${SECONDS_OF[aria2k]})
for tool in "${TOOLS[@]}"; do
    m=$(median ${SECONDS_OF[$tool]})
    awk -v t="$(label "$tool")" -v m="$m" -v b="$BYTES" -v c="$mc" -v a="$ma" -v k="$mk" -v x="${TRANSACTIONS[$tool]:-}" 'BEGIN {
        split(x, n, " "); printf "| %s | %.3f | %.1f MB/s | %.2f | %.2f | %.2f | %s |\n", t, m, b / m / 1e6, c / m, a / m, k / m, x == "" ? "—" : n[1] ", " n[2] }'
done
requests=$(grep -c '"GET /big.bin' "$WORK/access.log" || true)
echo
echo "(vs curl / vs aria2c: the peer's median time divided by this row's; > 1 is faster than the peer. nginx logged $requests requests in all.)"
