#!/usr/bin/env bash
# Webhook delivery alone, against its floor: what the service spends per delivered event, beside the least
# any libcurl-based sender spends on the same POSTs to the same receiver, in one run.
#
#   Benchmarks/delivery.sh [sessions=8] [tasks=4000] [repeats=1]
#
# Each repeat:
# 1. SESSIONS sessions whose delegate URL is a port where nothing listens yet (`progressInterval` 0.5 s, no
#    URL cache), the service started with URLSESSIOND_WEBHOOK_RETRY_SCHEDULE=3600: TASKS data tasks of 1 KiB
#    from an origin nginx (Benchmarks/transfers_client.py, CREATOR=batch) complete, each session's first
#    POST is refused and its lane waits an hour. Every event (5 per task) is now an undelivered backlog.
# 2. The receiver comes up on that port: nginx, one worker, `return 204` for every POST, one access-log line
#    each with the status and `Content-Length` (as Benchmarks/events.sh's). `POST /v1/sessions/{id}/redeliver`
#    sends each session's lane at once; the clock and both processes' CPU run from the first redeliver
#    until the receiver has logged every event.
# 3. The floor: Benchmarks/post_floor.c (built here with the system's libcurl), the same number of POSTs of
#    the deliveries' mean body length, SESSIONS at a time (a lane has one POST in flight), with the
#    headers a delivery carries, to the same receiver; its own CPU and the receiver's counted the same way.
#
# Reported per repeat: POSTs/s, the sender's CPU per POST (the service's whole process: reading the events,
# building and signing each body, libcurl, recording the outcomes) and the receiver's. The floor's row is
# what no webhook sender on libcurl can go below on this machine; the receiver's is what every POST costs
# the machine besides. Then the service's CPU per POST by thread, by the names the kernel shows (`webhooks`
# is the libcurl loop that sends, the one to set beside post_floor; the pool's threads run the rest).
# PROFILE=DIR: `perf record -g` of the service over each run's drain (from the first redeliver to the last
# answer), left in DIR (perf-delivery-RUN.data, and .txt: the symbols by self time and the threads by samples);
# PERF_CALLGRAPH="--call-graph dwarf,16384" in place of -g also resolves the libraries built without frame
# pointers.
# Checks: every event answered 204 exactly as many times as there are events (none repeated), every floor
# POST 2xx.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
SESSIONS=${1:-8}
TASKS=${2:-4000}
REPEATS=${3:-1}
PROFILE=${PROFILE:-}
PARALLEL=16
SPLITS=()
source Benchmarks/lib.sh
bench_setup
EVENTS=$((TASKS * 5))

CC=${CC:-$(command -v cc || command -v clang)}  # the Swift toolchain brings clang
"$CC" -O2 -o "$WORK/post_floor" Benchmarks/post_floor.c -lcurl || fail "building post_floor (libcurl4-openssl-dev)"
small_files "$TASKS"
start_origin small/0
sync
URLSESSIOND_WEBHOOK_RETRY_SCHEDULE=3600 URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 URLSESSIOND_MAX_TRANSFERS=$PARALLEL \
    URLSESSIOND_TENANT_MAX_TRANSFERS=$PARALLEL start_service

TICKS=$(getconf CLK_TCK)
per_post() { awk -v t="$1" -v n="$2" -v hz="$TICKS" 'BEGIN { printf "%.0f", t / hz / n * 1e6 }'; }
wait_for_lines() {  # $1 the log, $2 how many lines: waits (at most 300 s) until it has them
    for _ in $(seq 1 15000); do [ "$(wc -l < "$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0; sleep 0.02; done
    fail "$1 has $(wc -l < "$1") lines, not $2"
}

echo "Webhook delivery: $TASKS tasks' events ($EVENTS) over $SESSIONS sessions, then the same POSTs from" \
    "post_floor; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo
echo "| run | sender | POSTs | seconds | POSTs/s | sender CPU per POST | receiver CPU per POST |"
echo "|---:|---|---:|---:|---:|---:|---:|"
for run in $(seq 1 "$REPEATS"); do
    RECEIVER_PORT=$(free_port)
    RECEIVER=http://127.0.0.1:$RECEIVER_PORT
    IDS=
    for n in $(seq 0 $((SESSIONS - 1))); do
        id=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions" -d "{\"configuration\":{\"kind\":\"default\",
            \"httpMaximumConnectionsPerHost\":$PARALLEL,\"urlCache\":null},\"delegate\":{\"url\":\"$RECEIVER/hooks/$n\",
            \"secret\":\"whsec_$(head -c 32 /dev/urandom | base64 -w0)\",\"progressInterval\":0.5}}" | json id) \
            || fail "creating session $n"
        IDS=${IDS:+$IDS,}$id
    done
    CREATOR=batch VERIFY=0 timeout 360 python3 Benchmarks/transfers_client.py "$BASE" "$TOKEN" "$IDS" "$ORIGIN/small/" \
        "$TASKS" 8 data 300 1024 > "$WORK/client.json" || fail "tasks: $(cat "$WORK/client.json")"

    rm -f "$WORK/hooks.log"
    start_receiver "receiver$run" "$RECEIVER_PORT" '$status $content_length'
    WORKER=$(pgrep -P "$RECEIVER_PID" | head -n 1)

    PERF_PID=
    if [ -n "$PROFILE" ]; then
        mkdir -p "$PROFILE"
        perf record -F 999 ${PERF_CALLGRAPH:--g} -p "$SERVICE_PID" -o "$PROFILE/perf-delivery-$run.data" 2>/dev/null &
        PERF_PID=$!
        sleep 0.5  # perf attaches before the clock starts
    fi
    threads0=$(thread_ticks "$SERVICE_PID"); service0=$(cpu "$SERVICE_PID"); receiver0=$(cpu "$WORKER"); t0=$(now)
    for id in ${IDS//,/ }; do
        curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions/$id/redeliver" > /dev/null || fail "redeliver $id"
    done
    wait_for_lines "$WORK/hooks.log" "$EVENTS"
    t1=$(now); service1=$(cpu "$SERVICE_PID"); receiver1=$(cpu "$WORKER"); threads1=$(thread_ticks "$SERVICE_PID")
    if [ -n "$PERF_PID" ]; then
        kill -INT "$PERF_PID"; wait "$PERF_PID" || true
        { perf report -i "$PROFILE/perf-delivery-$run.data" --stdio -g none --sort sym 2>/dev/null | grep -v '^#' | head -n 60 || true
          perf report -i "$PROFILE/perf-delivery-$run.data" --stdio -g none --sort comm 2>/dev/null | grep -v '^#' | head -n 20 || true
        } | swift demangle --simplified > "$PROFILE/perf-delivery-$run.txt"
    fi
    SPLITS+=("run $run: $(cpu_by_thread "$threads0" "$threads1" "$EVENTS")")
    seconds=$(minus "$t1" "$t0")
    read -r answered other mean < <(awk '$1 == 204 { n++; bytes += $2 } $1 != 204 { o++ }
        END { printf "%d %d %d\n", n, o, (n ? bytes / n : 0) }' "$WORK/hooks.log")
    [ "$answered" = "$EVENTS" ] && [ "$other" = 0 ] || fail "deliveries: $answered answered 204 and $other otherwise, not $EVENTS"
    printf '| %d | urlsessiond | %d | %s | %.0f | %s µs | %s µs |\n' "$run" "$EVENTS" "$seconds" \
        "$(awk -v n="$EVENTS" -v s="$seconds" 'BEGIN { print n / s }')" \
        "$(per_post $((service1 - service0)) "$EVENTS")" "$(per_post $((receiver1 - receiver0)) "$EVENTS")"

    receiver0=$(cpu "$WORKER")
    floor=$("$WORK/post_floor" "$RECEIVER/hooks/floor" "$EVENTS" "$SESSIONS" "$mean") || fail "post_floor: $floor"
    receiver1=$(cpu "$WORKER")
    read -r floor_seconds floor_cpu < <(sed -E 's/.*: ([0-9.]+) s, .* CPU ([0-9.]+) us per POST.*/\1 \2/' <<< "$floor")
    printf '| %d | post_floor (%d-byte bodies) | %d | %s | %.0f | %.0f µs | %s µs |\n' "$run" "$mean" "$EVENTS" \
        "$floor_seconds" "$(awk -v n="$EVENTS" -v s="$floor_seconds" 'BEGIN { print n / s }')" "$floor_cpu" \
        "$(per_post $((receiver1 - receiver0)) "$EVENTS")"
    stop_pid "$RECEIVER_PID" QUIT
done
echo
echo "The service's CPU per POST by thread (the kernel's names; the pool's threads, \`oot.default-qos\` and"
echo "\`-qos.overcommit\`, run the coordinator, the store's queries and every other task):"
printf '  %s\n' "${SPLITS[@]}"
echo
echo "Checks: every event answered 204 once (none repeated); every post_floor POST answered 2xx."
