#!/usr/bin/env bash
# Streamed upload throughput: a file sent to nginx by `curl -T FILE` against the same file sent through a
# urlsessiond streamed upload (`uploadSource.stream`: `curl -T FILE` to `PUT /v1/tasks/{id}/body`, the
# service passing it on to nginx as it arrives), in one run. The urlsessiond time runs from the `PUT`'s
# start to the task's completion (`GET /v1/tasks/{id}?wait=`). nginx discards the body (`return 204`
# reads it to the end). Medians of REPEATS runs, order rotated; the file stays in the page cache.
#
#   Benchmarks/upload.sh [repeats=3] [MiB=1024]
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
REPEATS=${1:-3}
MIB=${2:-1024}
source Benchmarks/lib.sh
bench_setup
mkdir -p "$WORK/www"
chmod 755 "$WORK" "$WORK/www"
head -c $((MIB * 1048576)) /dev/urandom > "$WORK/body.bin"
cat "$WORK/body.bin" > /dev/null
ORIGIN_SERVER='client_max_body_size 0; location /sink { return 204; }' start_origin sink
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 start_service
SESSION=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions" -d '{"configuration":{"kind":"default"}}' | json id)

upload_curl() {
    timeout 600 curl -sf -o /dev/null -T "$WORK/body.bin" "$ORIGIN/sink" || fail "curl -T"
}
upload_urlsessiond() {  # the task is created and resumed before the clock starts
    local status
    status=$(timeout 600 curl -s -o /dev/null -w '%{http_code}' -T "$WORK/body.bin" -H "Authorization: Bearer $TOKEN" \
        "$BASE/v1/tasks/$TASK/body")
    [ "$status" = 204 ] || fail "PUT body: $status"
    curl -sf --max-time 600 "${AUTH[@]}" "$BASE/v1/tasks/$TASK?wait=300" > "$WORK/task.json"
}
new_task() {
    TASK=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions/$SESSION/tasks" -d "{\"kind\":\"upload\",
        \"request\":{\"url\":\"$ORIGIN/sink\",\"httpMethod\":\"PUT\"},\"uploadSource\":{\"stream\":true},\"resume\":true}" | json id)
}
verify() {
    [ "$(json state < "$WORK/task.json")" = completed ] && [ "$(json error < "$WORK/task.json")" = null ] \
        && [ "$(json countOfBytesSent < "$WORK/task.json")" = $((MIB * 1048576)) ] || fail "task: $(head -c 600 "$WORK/task.json")"
}

declare -A SECONDS_OF
TOOLS=(curl urlsessiond)
echo "Streamed upload: $MIB MiB to nginx on loopback, $REPEATS runs, $(nproc) cores"
for run in $(seq 1 "$REPEATS"); do
    line="  run $run:"
    for k in "${!TOOLS[@]}"; do
        tool=${TOOLS[$(((run - 1 + k) % ${#TOOLS[@]}))]}
        [ "$tool" = urlsessiond ] && new_task
        t0=$(now); "upload_$tool"; t1=$(now)
        [ "$tool" = urlsessiond ] && verify
        s=$(minus "$t1" "$t0")
        SECONDS_OF[$tool]="${SECONDS_OF[$tool]:-} $s"
        line="$line $tool ${s}s"
    done
    echo "$line"
done
echo
echo "| tool | median seconds | throughput | vs curl -T |"
echo "|---|---:|---:|---:|"
CURL=$(median ${SECONDS_OF[curl]})
for tool in curl urlsessiond; do
    m=$(median ${SECONDS_OF[$tool]})
    echo "| $tool | $m | $(awk -v b=$((MIB * 1048576)) -v s="$m" 'BEGIN { printf "%.0f MB/s", b / s / 1e6 }') | $(awk -v a="$CURL" -v b="$m" 'BEGIN { printf "%.2f", a / b }') |"
done
echo "(urlsessiond peak RSS: $(rss) MiB)"
