#!/usr/bin/env bash
# Upload throughput: a file sent to nginx by `curl -T FILE` against the same file sent through urlsessiond,
# in one run, two ways:
#   stream  a streamed upload (`uploadSource.stream`): `curl -T FILE` to `PUT /v1/tasks/{id}/body`, the
#           service passing it on to nginx as it arrives; timed from the `PUT`'s start to the task's
#           completion (`GET /v1/tasks/{id}?wait=`), the task created and resumed before the clock starts.
#   blob    an upload from a blob (`uploadSource.blob`, `uploadTask(with:fromFile:)`), the blob stored
#           before the clock starts; timed from the task's creation (resumed) to its completion.
# And two references that are not urlsessiond, the ceiling of relaying a body on this machine
# (Benchmarks/tcp_relay.py between `curl -T FILE` and nginx, started before the clock):
#   relay_copy    a relay through a 2 MiB user-space buffer (`recv_into`, `sendall`);
#   relay_splice  a relay whose bytes never enter user space (`splice(2)` through a pipe).
# nginx discards the body (`return 204` reads it to the end). Medians of REPEATS runs, order rotated; the
# file stays in the page cache. Then one pass of each way to a digest sink (Benchmarks/digest_sink.py:
# it reads the body, chunked or not, and answers its sha-256), checked against the file's.
#
#   Benchmarks/upload.sh [repeats=3] [MiB=1024]      MODES="stream blob" (the default) picks the ways
#   (MODES="stream blob relay_copy relay_splice" adds the references)
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
REPEATS=${1:-3}
MIB=${2:-1024}
read -r -a MODES <<< "${MODES:-stream blob}"
source Benchmarks/lib.sh
bench_setup
mkdir -p "$WORK/www"
chmod 755 "$WORK" "$WORK/www"
head -c $((MIB * 1048576)) /dev/urandom > "$WORK/body.bin"
cat "$WORK/body.bin" > /dev/null
ORIGIN_SERVER='client_max_body_size 0; location /sink { return 204; }' start_origin sink
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 start_service
SESSION=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions" -d '{"configuration":{"kind":"default"}}' | json id)
if [[ " ${MODES[*]} " == *" blob "* ]]; then
    BLOB=$(timeout 600 curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/octet-stream' \
        -X POST -T "$WORK/body.bin" "$BASE/v1/blobs" | json id)
fi

upload_curl() {
    timeout 600 curl -sf -o /dev/null -T "$WORK/body.bin" "$1/sink" || fail "curl -T"
}
new_task() {  # $1 the origin, $2 the uploadSource; sets TASK
    TASK=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions/$SESSION/tasks" -d "{\"kind\":\"upload\",
        \"request\":{\"url\":\"$1/sink\",\"httpMethod\":\"PUT\"},\"uploadSource\":$2,\"resume\":true}" | json id)
}
wait_task() { curl -sf --max-time 600 "${AUTH[@]}" "$BASE/v1/tasks/$TASK?wait=300" > "$WORK/task.json"; }
upload_stream() {
    local status
    status=$(timeout 600 curl -s -o /dev/null -w '%{http_code}' -T "$WORK/body.bin" -H "Authorization: Bearer $TOKEN" \
        "$BASE/v1/tasks/$TASK/body")
    [ "$status" = 204 ] || fail "PUT body: $status"
    wait_task
}
upload_blob() { new_task "$1" "{\"blob\":\"$BLOB\"}"; wait_task; }
declare -A RELAY_PORT  # "MODE ORIGIN" -> the port of its relay
RELAY_PIDS=()
trap 'kill "${RELAY_PIDS[@]}" 2>/dev/null || true; bench_cleanup' EXIT
start_relay() {  # $1 the mode, $2 the origin
    local port
    [ -z "${RELAY_PORT["$1 $2"]:-}" ] || return 0
    port=$(free_port)
    python3 Benchmarks/tcp_relay.py "$port" "${2##*:}" "$1" > "$WORK/relay-$port.log" 2>&1 &
    RELAY_PIDS+=($!)
    for _ in $(seq 1 100); do grep -q ready "$WORK/relay-$port.log" 2>/dev/null && break; sleep 0.05; done
    RELAY_PORT["$1 $2"]=$port
}
upload_relay_copy() { upload_curl "http://127.0.0.1:${RELAY_PORT["copy $1"]}"; }
upload_relay_splice() { upload_curl "http://127.0.0.1:${RELAY_PORT["splice $1"]}"; }
prepare() {  # $1 the way, $2 the origin: what is set up before the clock starts
    case "$1" in
        stream) new_task "$2" '{"stream":true}' ;;
        relay_*) start_relay "${1#relay_}" "$2" ;;
    esac
}
is_task() { [ "$1" = stream ] || [ "$1" = blob ]; }
verify() {
    [ "$(json state < "$WORK/task.json")" = completed ] && [ "$(json error < "$WORK/task.json")" = null ] \
        && [ "$(json countOfBytesSent < "$WORK/task.json")" = $((MIB * 1048576)) ] || fail "task: $(head -c 600 "$WORK/task.json")"
}

declare -A SECONDS_OF RSS_OF
TOOLS=(curl "${MODES[@]}")
echo "Upload: $MIB MiB to nginx on loopback, $REPEATS runs, $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq 1 "$REPEATS"); do
    line="  run $run:"
    for k in "${!TOOLS[@]}"; do
        tool=${TOOLS[$(((run - 1 + k) % ${#TOOLS[@]}))]}
        [ "$tool" = curl ] || { prepare "$tool" "$ORIGIN"; reset_peak >/dev/null; }
        t0=$(now); "upload_$tool" "$ORIGIN"; t1=$(now)
        ! is_task "$tool" || { verify; RSS_OF[$tool]="${RSS_OF[$tool]:-} $(rss)"; }
        s=$(minus "$t1" "$t0")
        SECONDS_OF[$tool]="${SECONDS_OF[$tool]:-} $s"
        line="$line $tool ${s}s"
    done
    echo "$line"
done
echo "  (load after: $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "| tool | median seconds | throughput | vs curl -T | service peak RSS (MiB, per run) |"
echo "|---|---:|---:|---:|---|"
CURL=$(median ${SECONDS_OF[curl]})
for tool in "${TOOLS[@]}"; do
    m=$(median ${SECONDS_OF[$tool]})
    echo "| $tool | $m | $(awk -v b=$((MIB * 1048576)) -v s="$m" 'BEGIN { printf "%.0f MB/s", b / s / 1e6 }') |" \
        "$(awk -v a="$CURL" -v b="$m" 'BEGIN { printf "%.2f", a / b }') | ${RSS_OF[$tool]:-—} |"
done

# The bodies arrive intact: each way once more, to a sink that digests what it reads.
SINK_PORT=$(free_port)
python3 Benchmarks/digest_sink.py "$SINK_PORT" > "$WORK/digests" 2>"$WORK/sink.log" &
SINK_PID=$!
trap 'kill "$SINK_PID" "${RELAY_PIDS[@]}" 2>/dev/null || true; bench_cleanup' EXIT
for _ in $(seq 1 100); do curl -sf --max-time 1 -o /dev/null "http://127.0.0.1:$SINK_PORT/ready" && break; sleep 0.05; done
WANT=$(sha256sum "$WORK/body.bin" | cut -d' ' -f1)
for tool in curl "${MODES[@]}"; do
    [ "$tool" = curl ] || prepare "$tool" "http://127.0.0.1:$SINK_PORT"
    "upload_$tool" "http://127.0.0.1:$SINK_PORT"
    ! is_task "$tool" || verify
    GOT=$(tail -n 1 "$WORK/digests")
    [ "$GOT" = "$WANT" ] || fail "$tool: the sink read sha-256 $GOT, the file's is $WANT"
done
echo "(bodies checked: the digest sink read sha-256 ${WANT:0:16}… for curl and for ${MODES[*]})"
