#!/usr/bin/env bash
# Soak: tasks created and finished without pause for MINUTES, with the retention periods short enough
# that pruning runs all along; the service's memory and the data directory must stay flat.
#
#   Benchmarks/soak.sh [minutes=60] [tasks per batch=200] [parallel=16]
#
# 1. nginx serves BATCH files of 1 KiB on loopback (`/0` … `/BATCH-1`).
# 2. The service keeps finished tasks, delivered events and invalidated sessions for 60 s, and looks for
#    what to prune every 10 s (URLSESSIOND_TASK_RETENTION, _EVENT_RETENTION, _SESSION_RETENTION,
#    _HOUSEKEEPING_INTERVAL); downloaded files expire after 60 s (URLSESSIOND_FILE_TTL).
# 3. Batch after batch until the time is up: a new session, BATCH tasks (data and download alternately;
#    Benchmarks/transfers_client.py creates them and checks each completed with 200, no error and 1 KiB),
#    then `finishTasksAndInvalidate`. Anything else is an error and is counted.
# 4. The housekeeping passes' log lines (`--log-level info`) give, per pass, its longest write transaction
#    (how long it held the one writer: what a task's write may wait for) and its longest batch (read,
#    wait for the writer, write); the summary shows their spread over the run.
# 5. Once a minute: the service's RSS (VmRSS), the database files' size (`*.sqlite*`), the data
#    directory's size, and the tasks finished so far. The summary compares the first minutes with the
#    last ones.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
MINUTES=${1:-60}
BATCH=${2:-200}
PARALLEL=${3:-16}
source Benchmarks/lib.sh
bench_setup  # BIN (or `make release`), WORK, TOKEN, AUTH; stops what was started and removes WORK at exit
CLIENT=$PWD/Benchmarks/transfers_client.py

mkdir -p "$WORK/www"
for i in $(seq 0 $((BATCH - 1))); do head -c 1024 /dev/urandom > "$WORK/www/$i"; done
chmod -R a+rX "$WORK/www"
start_origin 0
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 URLSESSIOND_TASK_RETENTION=60 URLSESSIOND_EVENT_RETENTION=60 URLSESSIOND_SESSION_RETENTION=60 \
    URLSESSIOND_HOUSEKEEPING_INTERVAL=10 URLSESSIOND_FILE_TTL=60 \
    URLSESSIOND_MAX_TRANSFERS=$PARALLEL URLSESSIOND_TENANT_MAX_TRANSFERS=$PARALLEL start_service --log-level info

vmrss() { awk '/^VmRSS/ { printf "%d", $2 / 1024 }' "/proc/$SERVICE_PID/status"; }  # MiB
db_size() { du -cm "$WORK"/data/*.sqlite* 2>/dev/null | awk 'END { print $1 }'; }   # MiB
data_size() { du -sm "$WORK/data" | awk '{ print $1 }'; }                          # MiB

samples="$WORK/samples"
: > "$samples"
done_tasks=0 errors=0 batches=0
started=$(now)
deadline=$(awk -v s="$started" -v m="$MINUTES" 'BEGIN { printf "%.0f", s + 60 * m }')
next_sample=$(awk -v s="$started" 'BEGIN { printf "%.0f", s + 60 }')
printf '%6s %10s %8s %8s %9s %7s\n' minute tasks rss_MiB db_MiB data_MiB errors
while [ "$(printf '%.0f' "$(now)")" -lt "$deadline" ]; do
    kind=$([ $((batches % 2)) -eq 0 ] && echo data || echo download)
    session=$(curl -sf -X POST "$BASE/v1/sessions" "${AUTH[@]}" \
        -d "{\"configuration\": {\"httpMaximumConnectionsPerHost\": $PARALLEL, \"urlCache\": null}}" | json id) || session=""
    if [ -z "$session" ]; then
        errors=$((errors + 1))
        sleep 1
        continue
    fi
    result=$(python3 "$CLIENT" "$BASE" "$TOKEN" "$session" "$ORIGIN/" "$BATCH" "$PARALLEL" "$kind" 300 1024 2>&1) || true
    ok=$(json ok <<<"$result" 2>/dev/null || echo 0)
    done_tasks=$((done_tasks + ok))
    errors=$((errors + BATCH - ok))
    curl -sf -o /dev/null -X POST "$BASE/v1/sessions/$session/finishTasksAndInvalidate" "${AUTH[@]}" || errors=$((errors + 1))
    batches=$((batches + 1))
    if [ "$(printf '%.0f' "$(now)")" -ge "$next_sample" ]; then
        minute=$(awk -v s="$started" -v n="$(now)" 'BEGIN { printf "%.0f", (n - s) / 60 }')
        line=$(printf '%6s %10s %8s %8s %9s %7s' "$minute" "$done_tasks" "$(vmrss)" "$(db_size)" "$(data_size)" "$errors")
        echo "$line" | tee -a "$samples"
        next_sample=$((next_sample + 60))
    fi
done
[ -s "$samples" ] || fail "no sample was taken: run for at least a minute"
kill -0 "$SERVICE_PID" 2>/dev/null || fail "the service died"
echo
awk -v total="$done_tasks" -v errors="$errors" -v minutes="$MINUTES" '
    { rss[NR] = $3; db[NR] = $4; data[NR] = $5 }
    END {
        n = NR; first = (n >= 3) ? 3 : n  # the first minutes warm up (caches, pools, the first prunes)
        maxr = 0; maxd = 0; maxa = 0
        for (i = first; i <= n; i++) { if (rss[i] > maxr) maxr = rss[i]; if (db[i] > maxd) maxd = db[i]; if (data[i] > maxa) maxa = data[i] }
        printf "%d tasks in %d min (%.0f/s), %d errors\n", total, minutes, total / (minutes * 60), errors
        printf "RSS MiB: minute %d %d, last %d, highest from minute %d %d\n", first, rss[first], rss[n], first, maxr
        printf "database MiB: minute %d %d, last %d, highest %d; data directory MiB: last %d, highest %d\n", first, db[first], db[n], maxd, data[n], maxa
    }' "$samples"
longest() {  # $1: the log's key; prints the median, p99 and highest of its values over the passes
    grep -o "$1=[0-9.e+-]*" "$WORK/service.log" | cut -d= -f2 | sort -g | awk '
        { v[NR] = $1 }
        END {
            if (NR == 0) { print "no pass logged"; exit }
            p99 = int(NR * 0.99 + 0.5); if (p99 < 1) p99 = 1
            printf "%d passes: median %.1f ms, p99 %.1f ms, max %.1f ms\n", NR, v[int((NR + 1) / 2)], v[p99], v[NR]
        }'
}
echo "longest write transaction of the housekeeping (holding the writer), per pass: $(longest longestWriteMilliseconds)"
echo "longest batch (read + wait for the writer + write), per pass: $(longest longestBatchMilliseconds)"
