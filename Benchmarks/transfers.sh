#!/usr/bin/env bash
# Transfer throughput: urlsessiond side by side with curl and aria2c, downloading from one local nginx
# in one run.
#
#   Benchmarks/transfers.sh [repeats=3] [large MiB=1024] [small files=2000] [parallel=16]
#
# 1. One large file of random bytes: `curl -s -o FILE URL`, `aria2c -x1`, and a urlsessiond download task
#    timed from its creation to its completion (`POST …/tasks?wait=300`); as a reference, `curl -o
#    /dev/null` (the network path alone, no file written). The runs rotate the order and the median
#    of the repeats is reported. The file stays in the page cache for every run (caches are not
#    dropped); each output is checked and deleted after its run, then `sync` (untimed), so no run pays
#    for the writeback of an earlier one.
# 2. Many 1 KiB files, PARALLEL at a time: `curl --parallel`, `aria2c -j`, and urlsessiond with
#    URLSESSIOND_MAX_TRANSFERS=PARALLEL in a session with httpMaximumConnectionsPerHost=PARALLEL and no
#    URL cache (data tasks, then download tasks): every task is created with `"resume": true` over
#    CLIENT_CONNECTIONS connections (default PARALLEL) by `curl --parallel` (CREATOR=curl, the default; or by
#    the Python client's threads with CREATOR=python, which is itself the limit past ~1,300 tasks/s; a
#    third urlsessiond row always creates data tasks by `POST …/tasks/batch` of BATCH_SIZE=100), and
#    Benchmarks/transfers_client.py runs the clock from the first create until no task of the session is
#    running (its own clock, so start-ups are not counted); it then checks every task (200, no error,
#    1 KiB), untimed.
# 3. The service's peak RSS (VmHWM) for each scenario (reset through /proc/PID/clear_refs in between).
#
# SMALL_RATE_LIMIT=B/s gives the small files' sessions that receive limit (see below).
#
# PROFILE=DIR additionally records one more urlsessiond run of each scenario (small data tasks twice: created
# one by one and by batches) with `perf record -g` and
# leaves the reports in DIR. Everything runs on loopback with OS-chosen ports in a throw-away directory
# that is removed at the end, the large file included.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
REPEATS=${1:-3}
LARGE_MIB=${2:-1024}
SMALL=${3:-2000}
PARALLEL=${4:-16}
CLIENT_CONNECTIONS=${CLIENT_CONNECTIONS:-$PARALLEL}
# Who sends the creates: `curl` (--parallel, native like the peers) or `python` (the client's threads).
export CREATOR=${CREATOR:-curl}
PROFILE=${PROFILE:-}
source Benchmarks/lib.sh
bench_setup  # BIN (or `make release`), WORK, TOKEN, AUTH; stops what was started and removes WORK at exit
CLIENT=$PWD/Benchmarks/transfers_client.py

# --- Origin: nginx serving the files from the throw-away directory. ---
mkdir -p "$WORK/www/small" "$WORK/tmp" "$WORK/out"
chmod 755 "$WORK" "$WORK/www" "$WORK/www/small"  # nginx workers run as www-data
LARGE_BYTES=$((LARGE_MIB * 1048576))
head -c "$LARGE_BYTES" /dev/urandom > "$WORK/www/large.bin"
LARGE_SHA=$(sha256sum "$WORK/www/large.bin" | cut -d' ' -f1)  # also reads it into the page cache
NGINX_PORT=$(free_port)  # start_origin listens there
ORIGIN=http://127.0.0.1:$NGINX_PORT
python3 - "$WORK" "$SMALL" "$ORIGIN" <<'PY'
import os, sys
work, count, origin = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(f"{work}/small.curl", "w") as curl, open(f"{work}/small.aria2", "w") as aria2:
    for i in range(count):
        with open(f"{work}/www/small/{i}", "wb") as f:
            f.write(os.urandom(1024))
        curl.write(f'url = "{origin}/small/{i}"\noutput = "/dev/null"\n')
        aria2.write(f"{origin}/small/{i}\n")
PY
start_origin small/0

sync  # the origin's files are written out before anything is measured
# --- The service: loopback origins allowed, PARALLEL transfers at once. ---
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 URLSESSIOND_MAX_TRANSFERS=$PARALLEL URLSESSIOND_TENANT_MAX_TRANSFERS=$PARALLEL start_service
new_session() {  # $1 httpMaximumConnectionsPerHost, $2 more configuration; no URL cache, as curl and aria2c have none
    curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions" -d "{\"configuration\":{\"kind\":\"default\",
        \"httpMaximumConnectionsPerHost\":$1,\"urlCache\":null${2:-}},\"sessionDescription\":\"benchmark\"}" | json id
}
# SMALL_RATE_LIMIT=B/s: the small files' sessions have that receive limit (`rateLimit`), high enough not to
# slow them, so what is measured is what a limit costs each request (its socket's bound, its connection).
SMALL_SESSION_EXTRA=
[ -z "${SMALL_RATE_LIMIT:-}" ] || SMALL_SESSION_EXTRA=",\"rateLimit\":{\"receiveBytesPerSecond\":$SMALL_RATE_LIMIT}"
RSS_IDLE=$(rss)

profile() {  # $1 name, $2... command to run while perf samples the service (999 Hz, call graphs)
    local name=$1; shift
    perf record -F 999 -g -p "$SERVICE_PID" -o "$PROFILE/perf-$name.data" 2>/dev/null &
    PERF_PID=$!
    sleep 0.5
    local cpu0; cpu0=$(cpu "$SERVICE_PID")
    VERIFY=0 "$@" >/dev/null  # the client's untimed check is not profiled
    echo "  service CPU during $name: $(( ($(cpu "$SERVICE_PID") - cpu0) * 1000 / $(getconf CLK_TCK) )) ms"
    stop_pid "$PERF_PID" INT
    PERF_PID=
    local report=(perf report -i "$PROFILE/perf-$name.data" --stdio -g none)
    { echo "## threads"; "${report[@]}" --no-children --sort comm 2>/dev/null | grep -v '^#' | grep .
      echo "## shared objects"; "${report[@]}" --no-children --sort dso 2>/dev/null | grep -v '^#' | grep .
      echo "## self time by function (>= 0.5%)"
      "${report[@]}" --no-children --sort dso,sym --percent-limit 0.5 2>/dev/null | grep -v '^#' | grep .
      echo "## inclusive time by function (>= 3%)"
      "${report[@]}" --children --sort sym --percent-limit 3 2>/dev/null | grep -v '^#' | grep .
    } | swift demangle --simplified > "$PROFILE/perf-$name.txt"
    echo "  profile: $PROFILE/perf-$name.txt (and .data)"
}

# --- 1. The large file. ---
LARGE_URL=$ORIGIN/large.bin
LARGE_SESSION=$(new_session 6)
large_curl() {
    timeout 600 curl -sf -o "$WORK/out/large.bin" "$LARGE_URL" || fail "curl large"
}
large_aria2() {
    timeout 600 aria2c -x1 -d "$WORK/out" -o large.bin --allow-overwrite=true --file-allocation=none \
        --summary-interval=0 -q "$LARGE_URL" || fail "aria2c large"
}
large_curl_devnull() {  # reference: the network path alone
    timeout 600 curl -sf -o /dev/null "$LARGE_URL" || fail "curl large to /dev/null"
}
large_urlsessiond() {
    timeout 330 curl -sf "${AUTH[@]}" -X POST "$BASE/v1/sessions/$LARGE_SESSION/tasks?wait=300" \
        -d "{\"kind\":\"download\",\"request\":{\"url\":\"$LARGE_URL\"},\"resume\":true}" > "$WORK/task.json" \
        || fail "urlsessiond large: create"
}
verify_large() {  # untimed
    case $1 in
    urlsessiond)
        local id state
        id=$(json id < "$WORK/task.json"); state=$(json state < "$WORK/task.json")
        [ "$state" = completed ] && [ "$(json error < "$WORK/task.json")" = null ] \
            && [ "$(json countOfBytesReceived < "$WORK/task.json")" = "$LARGE_BYTES" ] \
            || fail "urlsessiond large: $(head -c 600 "$WORK/task.json")"
        [ "$(timeout 120 curl -sf "${AUTH[@]}" "$BASE/v1/tasks/$id/file" | sha256sum | cut -d' ' -f1)" = "$LARGE_SHA" ] \
            || fail "urlsessiond large: sha256 of /v1/tasks/$id/file differs"
        curl -sf --max-time 30 "${AUTH[@]}" -X DELETE "$BASE/v1/tasks/$id/file" || fail "DELETE file"
        ;;
    curl_devnull) ;;
    *)
        cmp -s "$WORK/out/large.bin" "$WORK/www/large.bin" || fail "$1 large: output differs"
        rm -f "$WORK/out/large.bin" "$WORK/out/large.bin.aria2"
        ;;
    esac
}
declare -A SECONDS_OF
TOOLS=(curl aria2 urlsessiond curl_devnull)
echo "Large file: $LARGE_MIB MiB of random bytes from nginx on loopback (page cache hot), $REPEATS runs each, $(nproc) cores"
reset_peak
for run in $(seq 1 "$REPEATS"); do
    line="  run $run:"
    for k in "${!TOOLS[@]}"; do
        tool=${TOOLS[$(((run - 1 + k) % ${#TOOLS[@]}))]}
        t0=$(now); "large_$tool"; t1=$(now)
        verify_large "$tool"
        sync  # no writeback of earlier runs' files during the next one
        s=$(minus "$t1" "$t0")
        SECONDS_OF[large_$tool]="${SECONDS_OF[large_$tool]:-} $s"
        line="$line $tool ${s}s"
    done
    echo "$line"
done
RSS_LARGE=$(rss)
[ -n "$PROFILE" ] && { mkdir -p "$PROFILE"; profile large large_urlsessiond; verify_large urlsessiond; }

# --- 2. Many small files. ---
small_curl() {
    timeout 300 curl --parallel --parallel-max "$PARALLEL" -sSf --no-progress-meter -K "$WORK/small.curl" || fail "curl small"
}
small_aria2() {
    rm -rf "$WORK/out/small"
    timeout 300 aria2c -j"$PARALLEL" -i "$WORK/small.aria2" -d "$WORK/out/small" --allow-overwrite=true \
        --file-allocation=none -q || fail "aria2c small"
    [ "$(find "$WORK/out/small" -type f -size 1k | wc -l)" = "$SMALL" ] || fail "aria2c small: files missing"
}
small_usd() {  # $1 data|download; the session is created before the clock starts
    timeout 300 python3 "$CLIENT" "$BASE" "$TOKEN" "$SMALL_SESSION" "$ORIGIN/small/" "$SMALL" \
        "$CLIENT_CONNECTIONS" "$1" 240 1024 > "$WORK/client.json" || fail "urlsessiond small $1: $(cat "$WORK/client.json")"
}
small_urlsessiond_data() { small_usd data; }
small_urlsessiond_download() { small_usd download; }
small_urlsessiond_batch() { CREATOR=batch small_usd data; }
SMALL_TOOLS=(curl aria2 urlsessiond_data urlsessiond_download urlsessiond_batch)
echo "Small files: $SMALL x 1 KiB, $PARALLEL at a time, $REPEATS runs each"
reset_peak
for run in $(seq 1 "$REPEATS"); do
    line="  run $run:"
    for k in "${!SMALL_TOOLS[@]}"; do
        tool=${SMALL_TOOLS[$(((run - 1 + k) % ${#SMALL_TOOLS[@]}))]}
        SMALL_SESSION=$(new_session "$PARALLEL" "$SMALL_SESSION_EXTRA")
        sync
        t0=$(now); "small_$tool"; t1=$(now)
        s=$(minus "$t1" "$t0")
        extra=
        case $tool in urlsessiond_*)
            # The client's own clock: from the first create to the poll that saw no running task.
            s=$(json seconds < "$WORK/client.json")
            extra=" (creates $(json createSeconds < "$WORK/client.json")s)";;
        esac
        SECONDS_OF[small_$tool]="${SECONDS_OF[small_$tool]:-} $s"
        line="$line $tool ${s}s$extra"
    done
    rm -rf "$WORK/out/small"
    echo "$line"
done
RSS_SMALL=$(rss)
if [ -n "$PROFILE" ]; then
    SMALL_SESSION=$(new_session "$PARALLEL" "$SMALL_SESSION_EXTRA")
    profile small-data small_usd data
    SMALL_SESSION=$(new_session "$PARALLEL" "$SMALL_SESSION_EXTRA")
    CREATOR=batch profile small-batch small_usd data
fi

# --- Results. ---
label() {
    case $1 in
    curl) echo '`curl -s -o FILE`' ;;
    aria2) echo '`aria2c -x1`' ;;
    urlsessiond) echo 'urlsessiond download task' ;;
    curl_devnull) echo 'reference: `curl -o /dev/null` (network only)' ;;
    small_curl) echo "\`curl --parallel --parallel-max $PARALLEL\` to /dev/null" ;;
    small_aria2) echo "\`aria2c -j$PARALLEL -i LIST\`" ;;
    small_urlsessiond_data) echo "urlsessiond data tasks, $PARALLEL at a time" ;;
    small_urlsessiond_download) echo "urlsessiond download tasks, $PARALLEL at a time" ;;
    small_urlsessiond_batch) echo "urlsessiond data tasks created by batches of ${BATCH_SIZE:-100}" ;;
    esac
}
echo
echo "| scenario | tool | median seconds | throughput | vs curl | vs aria2c |"
echo "|---|---|---:|---:|---:|---:|"
lc=$(median ${SECONDS_OF[large_curl]})
la=$(median ${SECONDS_OF[large_aria2]})
for tool in curl aria2 urlsessiond curl_devnull; do
    m=$(median ${SECONDS_OF[large_$tool]})
    awk -v t="$(label "$tool")" -v m="$m" -v b="$LARGE_BYTES" -v c="$lc" -v a="$la" -v mib="$LARGE_MIB" 'BEGIN {
        printf "| %d MiB download | %s | %.3f | %.0f MB/s | %.2f | %.2f |\n", mib, t, m, b / m / 1e6, c / m, a / m }'
done
sc=$(median ${SECONDS_OF[small_curl]})
sa=$(median ${SECONDS_OF[small_aria2]})
for tool in "${SMALL_TOOLS[@]}"; do
    m=$(median ${SECONDS_OF[small_$tool]})
    awk -v t="$(label "small_$tool")" -v m="$m" -v n="$SMALL" -v c="$sc" -v a="$sa" -v p="$PARALLEL" 'BEGIN {
        printf "| %d x 1 KiB | %s | %.3f | %.0f tasks/s | %.2f | %.2f |\n", n, t, m, n / m, c / m, a / m }'
done
echo
echo "urlsessiond peak RSS (VmHWM): idle ${RSS_IDLE} MiB, large-file scenario ${RSS_LARGE} MiB, small-files scenario ${RSS_SMALL} MiB"
echo "(vs curl / vs aria2c: the peer's median time divided by this row's; > 1 is faster than the peer)"
