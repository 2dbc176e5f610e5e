#!/usr/bin/env bash
# One command, one download: `urlsessiond get URL -o FILE` side by side with `curl -o FILE` and `aria2c`
# in one run, from one local nginx.
#
#   Benchmarks/get.sh [repeats=3] [MiB=1024]
#
# Each run is a whole command as a user types it, timed from its start to its exit: for urlsessiond that
# is the shared session found, the download task created, the service's transfer, its progress events
# followed over server-sent events, the finished file fetched from the service by the client and moved
# into place. The client and the service share the machine (and its 2 cores), so the fetch is a second
# copy of every byte that curl and aria2c do not make: it is the price of a download the service owns
# (it survives the command, resumes, is listed by `urlsessiond tasks`). The orders rotate; the median of
# the repeats is reported; each output is checked (SHA-256) and removed, then `sync`, untimed.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
REPEATS=${1:-3}
MIB=${2:-1024}
source Benchmarks/lib.sh
bench_setup

mkdir -p "$WORK/www" "$WORK/out"
chmod 755 "$WORK" "$WORK/www"
head -c $((MIB * 1048576)) /dev/urandom > "$WORK/www/large.bin"
SHA=$(sha256sum "$WORK/www/large.bin" | cut -d' ' -f1)
start_origin large.bin
sync
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 start_service
URL=$ORIGIN/large.bin
OUT=$WORK/out/large.bin

run_curl() { timeout 600 curl -sf -o "$OUT" "$URL"; }
run_aria2() {
    timeout 600 aria2c -x1 -d "$WORK/out" -o large.bin --allow-overwrite=true --file-allocation=none \
        --summary-interval=0 -q "$URL"
}
run_urlsessiond() {
    URLSESSIOND_URL=$BASE URLSESSIOND_TOKEN=$TOKEN timeout 600 "$BIN" get "$URL" -o "$OUT" 2>"$WORK/get.log" \
        || fail "urlsessiond get: $(tail -n 3 "$WORK/get.log")"
}

declare -A TIMES
NAMES=(curl aria2 urlsessiond)
for repeat in $(seq 1 "$REPEATS"); do
    for i in 0 1 2; do
        name=${NAMES[$(( (i + repeat) % 3 ))]}
        start=$(now)
        "run_$name" || fail "$name"
        TIMES[$name]+="$(minus "$(now)" "$start") "
        [ "$(sha256sum "$OUT" | cut -d' ' -f1)" = "$SHA" ] || fail "$name: the file differs"
        rm -f "$OUT"
        sync
    done
done

echo "One ${MIB} MiB download from a local nginx, the whole command timed (median of $REPEATS):"
printf '%-40s %10s %12s\n' command seconds MiB/s
for name in curl aria2 urlsessiond; do
    # shellcheck disable=SC2086
    seconds=$(median ${TIMES[$name]})
    case $name in
    curl) label="curl -o FILE" ;;
    aria2) label="aria2c -x1" ;;
    urlsessiond) label="urlsessiond get URL -o FILE" ;;
    esac
    printf '%-40s %10s %12s\n' "$label" "$seconds" "$(awk -v m="$MIB" -v s="$seconds" 'BEGIN { printf "%.0f", m / s }')"
done
