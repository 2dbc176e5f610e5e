#!/usr/bin/env bash
# URL cache hits against network loads (issue 11): FILES small GETs answered from a session's URLCache
# compared with the same GETs sent to nginx through the service, in one run. Aim: cache hits at
# >= 3x the tasks/s of network loads.
#
#   [DELAY_MS=0] Benchmarks/cache.sh [repeats=3] [files=2000] [parallel=16]
#
# DELAY_MS > 0 puts Benchmarks/latency_proxy.py between the service and nginx: every byte waits DELAY_MS
# in each direction (a round trip of 2 x DELAY_MS, as to an origin in another region), which is what a
# cache hit saves; without it, loopback makes the network nearly free and the per-task cost of the
# service (creation, events, completion) sets both rates.
#
# The origin is one local nginx (Benchmarks/lib.sh's start_origin) serving FILES files of 1 KiB random
# bytes, each with `Cache-Control: max-age=3600` (and nginx's own ETag and Last-Modified), with an
# access log. The service runs with URLSESSIOND_MAX_TRANSFERS=PARALLEL. Each repeat uses fresh sessions,
# all with httpMaximumConnectionsPerHost=PARALLEL:
#   network         a session with `"urlCache": null`: FILES data tasks, every one a load from nginx;
#   fill            a session with a private cache of 64 MiB in memory and 256 MiB on disk (a 1 KiB
#                   response passes the 5% rule of both tiers): the same FILES data tasks, network loads
#                   that also store their responses;
#   hits            the fill's session again, the same FILES URLs: every task is answered from the cache
#                   (fresh for an hour, so no revalidation either);
#   hits (download) the same session once more, download tasks (each writes its file).
# Each scenario is Benchmarks/transfers_client.py with CREATOR=curl: the creates (`"resume": true`) come
# from `curl --parallel` over PARALLEL connections, and the client's clock runs from the first create
# until no task of the session is running (start-ups, session creation and the checks are not counted).
# The network scenario runs first in odd repeats and last in even ones. Checked, untimed, after each
# scenario: every task of the session completed with 200, no error and 1,024 bytes (the session's
# earlier scenarios' tasks included); how many requests for the files nginx logged during it (FILES for
# network and fill, 0 for both hit scenarios); `GET /v1/sessions/{id}/cache` reports entryCount == FILES
# after the fill and after each hit scenario; the metrics (`GET /v1/tasks/{id}/metrics`) of a fill task
# say `networkLoad` and of a hit task of each kind `localCache`, one transaction each.
#
# Reported: per run and scenario the client's seconds and, in brackets, how long the creates took (when
# they take the whole window, the task-creation path, not the load, sets the rate), the service's CPU
# time and nginx's requests for the files; then per scenario the median of the repeats and their range,
# in seconds and tasks/s, and the service's CPU time (utime + stime of /proc/PID/stat, all threads,
# sampled every 10 ms) over the client's clock window; then hits / network. Everything runs on loopback
# with OS-chosen ports in a throw-away directory that is removed at the end. BIN=/path/to/urlsessiond
# runs that binary instead of `make release` (see Benchmarks/lib.sh); URLSESSIOND_DATABASE_URL=postgres://…
# in the environment runs the service on that PostgreSQL database (a fresh one per run).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
REPEATS=${1:-3}
FILES=${2:-2000}
PARALLEL=${3:-16}
export CREATOR=curl  # the creates from `curl --parallel`, as in transfers.sh
source Benchmarks/lib.sh
bench_setup  # BIN (or `make release`), WORK, TOKEN, AUTH; stops what was started and removes WORK at exit
CLIENT=$PWD/Benchmarks/transfers_client.py
SAMPLER_PID=

# --- Origin: nginx serving the files, cacheable for an hour, with an access log. ---
small_files "$FILES"
ACCESS_LOG=$WORK/nginx-access.log
ORIGIN_SERVER="access_log $ACCESS_LOG; location /small/ { add_header Cache-Control \"max-age=3600\"; }" start_origin small/0
headers=$(curl -sf --max-time 5 -D - -o /dev/null "$ORIGIN/small/0")
grep -qi '^cache-control: max-age=3600' <<<"$headers" && grep -qi '^etag:' <<<"$headers" \
    || fail "nginx does not send Cache-Control and ETag: $headers"
origin_requests() { grep -c ' "GET /small/' "$ACCESS_LOG" || true; }  # 0 is not an error here
DELAY_MS=${DELAY_MS:-0}
PROXY_PID=
TASK_ORIGIN=$ORIGIN  # where the tasks' URLs point: nginx, or the latency proxy in front of it
if [ "$DELAY_MS" != 0 ]; then
    python3 Benchmarks/latency_proxy.py 0 "$NGINX_PORT" "$DELAY_MS" "$WORK/proxy-port" &
    PROXY_PID=$!
    for _ in $(seq 1 100); do [ -s "$WORK/proxy-port" ] && break; sleep 0.05; done
    [ -s "$WORK/proxy-port" ] || fail "the latency proxy did not start"
    TASK_ORIGIN=http://127.0.0.1:$(cat "$WORK/proxy-port")
    curl -sf --max-time 5 -o /dev/null "$TASK_ORIGIN/small/0" || fail "nothing answers through the latency proxy"
fi

sync  # the origin's files are written out before anything is measured
# --- The service: loopback origins allowed, PARALLEL transfers at once. ---
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 URLSESSIOND_MAX_TRANSFERS=$PARALLEL URLSESSIOND_TENANT_MAX_TRANSFERS=$PARALLEL start_service
CLK_TCK=$(getconf CLK_TCK)
CACHE_CONFIG=${CACHE_CONFIG:-'{"storage":"private","memoryCapacity":67108864,"diskCapacity":268435456}'}
new_session() {  # $1 the urlCache value
    curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions" -d "{\"configuration\":{\"kind\":\"default\",
        \"httpMaximumConnectionsPerHost\":$PARALLEL,\"urlCache\":$1},\"sessionDescription\":\"benchmark\"}" | json id
}
entry_count() {  # $1 session
    curl -sf --max-time 10 "${AUTH[@]}" "$BASE/v1/sessions/$1/cache" | json entryCount
}
expect_entries() {  # $1 session, $2 phase: entryCount == FILES (waits up to 10 s for stores still in flight)
    local count
    for _ in $(seq 1 100); do
        count=$(entry_count "$1")
        [ "$count" = "$FILES" ] && return 0
        sleep 0.1
    done
    fail "$2: GET /v1/sessions/$1/cache says entryCount $count, not $FILES"
}
task_id() {  # $1 session, $2 index in creation order
    python3 - "$BASE" "$TOKEN" "$1" "$2" <<'PY'
import json, sys, urllib.request
base, token, session, index = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
after, seen = None, 0
while True:
    url = f"{base}/v1/sessions/{session}/tasks?limit=1000" + (f"&after={after}" if after else "")
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    page = json.load(urllib.request.urlopen(request, timeout=30))
    if index < seen + len(page["items"]):
        print(page["items"][index - seen]["id"])
        break
    seen += len(page["items"])
    after = page["nextCursor"]
    if not after:
        sys.exit(f"the session has {seen} tasks, none at index {index}")
PY
}
expect_fetch_type() {  # $1 session, $2 task index, $3 expected resourceFetchType, $4 phase
    local id types
    id=$(task_id "$1" "$2") || fail "$4: no task $2 in session $1"
    types=$(curl -sf --max-time 10 "${AUTH[@]}" "$BASE/v1/tasks/$id/metrics" \
        | python3 -c 'import json,sys; print(",".join(t["resourceFetchType"] for t in json.load(sys.stdin)["transactionMetrics"]))') \
        || fail "$4: GET /v1/tasks/$id/metrics"
    [ "$types" = "$3" ] || fail "$4: task $id has resourceFetchType [$types], expected [$3]"
}

# The service's CPU ticks (utime + stime, all threads) every 10 ms, with the wall-clock time, in a file.
start_sampler() {
    python3 - "$SERVICE_PID" > "$WORK/cpu.log" <<'PY' &
import sys, time
path = f"/proc/{sys.argv[1]}/stat"
while True:
    with open(path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    print(f"{time.time():.4f} {int(fields[11]) + int(fields[12])}", flush=True)
    time.sleep(0.01)
PY
    SAMPLER_PID=$!
    for _ in $(seq 1 100); do [ -s "$WORK/cpu.log" ] && return 0; sleep 0.01; done
    fail "the CPU sampler did not start"
}
stop_sampler() { stop_pid "$SAMPLER_PID" TERM; SAMPLER_PID=; }
trap '[ -n "${SAMPLER_PID:-}" ] && stop_pid "$SAMPLER_PID" TERM; [ -n "${PROXY_PID:-}" ] && stop_pid "$PROXY_PID" TERM; bench_cleanup' EXIT
cpu_seconds() {  # $1 startedAt, $2 finishedAt: ticks from the last sample at or before $1 to the first at or after $2
    awk -v a="$1" -v b="$2" -v hz="$CLK_TCK" '
        $1 <= a { t0 = $2 } $1 >= b && t1 == "" { t1 = $2 }
        END { if (t0 == "" || t1 == "") print "nan"; else printf "%.2f", (t1 - t0) / hz }' "$WORK/cpu.log"
}

# run_scenario NAME SESSION KIND TASKS_BEFORE: the client, then its checks; appends to SECONDS_OF, CPU_OF.
declare -A SECONDS_OF RATE_OF CPU_OF REQUESTS_OF
run_scenario() {
    local name=$1 session=$2 kind=$3 before=$4 logged0 logged1 out=$WORK/client-$1.json
    sync
    logged0=$(origin_requests)
    start_sampler
    timeout 300 python3 "$CLIENT" "$BASE" "$TOKEN" "$session" "$TASK_ORIGIN/small/" "$FILES" "$PARALLEL" "$kind" 240 1024 \
        > "$out" || true  # judged below: the session's earlier tasks make the client's own verdict "not ok"
    stop_sampler
    python3 - "$out" "$FILES" "$before" <<'PY' || fail "$name: $(cat "$out")"
import json, sys
r, count, before = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
ok = (r["created"] == count and not r["errors"] and not r["timedOut"]
      and r["completed"] == r["ok"] == before + count)
sys.exit(0 if ok else 1)
PY
    logged1=$(origin_requests)
    local s cpu
    s=$(json seconds < "$out")
    cpu=$(cpu_seconds "$(json startedAt < "$out")" "$(json finishedAt < "$out")")
    SECONDS_OF[$name]="${SECONDS_OF[$name]:-} $s"
    RATE_OF[$name]="${RATE_OF[$name]:-} $(awk -v n="$FILES" -v s="$s" 'BEGIN { printf "%.1f", n / s }')"
    CPU_OF[$name]="${CPU_OF[$name]:-} $cpu"
    REQUESTS_OF[$name]=$((logged1 - logged0))
    LINE="$LINE $name ${s}s (creates $(json createSeconds < "$out")s, cpu ${cpu}s, nginx $((logged1 - logged0)))"
}

network() {
    local session
    session=$(new_session null)
    run_scenario network "$session" data 0
    [ "${REQUESTS_OF[network]}" = "$FILES" ] || fail "network: nginx logged ${REQUESTS_OF[network]} requests, not $FILES"
    expect_fetch_type "$session" 0 networkLoad network
}
cached() {
    local session
    session=$(new_session "$CACHE_CONFIG")
    run_scenario fill "$session" data 0
    [ "${REQUESTS_OF[fill]}" = "$FILES" ] || fail "fill: nginx logged ${REQUESTS_OF[fill]} requests, not $FILES"
    expect_entries "$session" fill
    expect_fetch_type "$session" 0 networkLoad fill
    run_scenario hits "$session" data "$FILES"
    [ "${REQUESTS_OF[hits]}" = 0 ] || fail "hits: nginx logged ${REQUESTS_OF[hits]} requests for the files"
    expect_entries "$session" hits
    expect_fetch_type "$session" "$FILES" localCache hits
    run_scenario hits_download "$session" download $((2 * FILES))
    [ "${REQUESTS_OF[hits_download]}" = 0 ] || fail "hits (download): nginx logged ${REQUESTS_OF[hits_download]} requests"
    expect_entries "$session" "hits (download)"
    expect_fetch_type "$session" $((2 * FILES)) localCache "hits (download)"
}

echo "URL cache: $FILES x 1 KiB (Cache-Control: max-age=3600) from nginx on loopback (+${DELAY_MS} ms each way), $PARALLEL at a time, $REPEATS runs, $(nproc) cores"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq 1 "$REPEATS"); do
    LINE="  run $run:"
    if [ $((run % 2)) = 1 ]; then network; cached; else cached; network; fi
    echo "$LINE"
done
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- Results. ---
label() {
    case $1 in
    network) echo 'network: data tasks, `"urlCache": null`' ;;
    fill) echo 'fill: data tasks, private cache (network loads that store)' ;;
    hits) echo 'hits: data tasks, the same session and URLs' ;;
    hits_download) echo 'hits: download tasks, the same session and URLs' ;;
    esac
}
range() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f-%.0f", lo, hi }'; }
echo
echo "| scenario | median s | median tasks/s | tasks/s range | service CPU s (median) | CPU µs/task | nginx requests |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for name in network fill hits hits_download; do
    m=$(median ${SECONDS_OF[$name]})
    c=$(median ${CPU_OF[$name]})
    awk -v t="$(label "$name")" -v m="$m" -v rate="$(median ${RATE_OF[$name]})" -v r="$(range ${RATE_OF[$name]})" \
        -v c="$c" -v n="$FILES" -v q="${REQUESTS_OF[$name]}" 'BEGIN {
        printf "| %s | %.3f | %.0f | %s | %.2f | %.0f | %d |\n", t, m, rate, r, c, c / n * 1e6, q }'
done
awk -v h="$(median ${RATE_OF[hits]})" -v d="$(median ${RATE_OF[hits_download]})" \
    -v n="$(median ${RATE_OF[network]})" -v f="$(median ${RATE_OF[fill]})" 'BEGIN {
    printf "\nhits / network (median tasks/s): %.2fx data tasks, %.2fx download tasks (aim: >= 3x); fill / network: %.2fx\n", h / n, d / n, f / n }'
echo "(nginx requests: those for the files in the access log during the last run's scenario; CPU: the service's"
echo " utime + stime over the client's clock window, sampled every 10 ms at $CLK_TCK ticks/s)"
