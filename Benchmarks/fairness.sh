#!/usr/bin/env bash
# Fairness between tenants: tenant B's small downloads alone, then again while tenant A has a backlog of
# slow downloads queued, in one run against one local nginx.
#
#   Benchmarks/fairness.sh [backlog=5000] [tasks=100] [repeats=3]
#
# 1. nginx serves TASKS files of 64 KiB (`/small/N`) and one of 200,000 bytes under `/slow/`, sent at
#    20 KiB/s (`limit_rate`): 10 s per slow download.
# 2. The service runs with its defaults (64 transfers, each tenant up to half of them) and two tenants.
#    B's TASKS downloads run alone (a fresh session each repeat) with Benchmarks/transfers_client.py
#    timing from the first create until none is running: B's solo rate.
# 3. Tenant A creates BACKLOG slow downloads (`curl --parallel`, 16 connections), all at once; once they
#    are created, B's TASKS downloads run again the same way: B's rate beside A's backlog. A's running
#    and queued counts are read from A's session before and after.
# The figure is B's contended rate as a share of its solo rate (the issue asks for at least 40 %).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
BACKLOG=${1:-5000}
TASKS=${2:-100}
REPEATS=${3:-3}
source Benchmarks/lib.sh
bench_setup  # BIN (or `make release`), WORK, TOKEN, AUTH; stops what was started and removes WORK at exit
CLIENT=$PWD/Benchmarks/transfers_client.py
TOKEN_B=bench-b-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')

mkdir -p "$WORK/www/small" "$WORK/www/slow"
for i in $(seq 0 $((TASKS - 1))); do head -c 65536 /dev/urandom > "$WORK/www/small/$i"; done
head -c 200000 /dev/urandom > "$WORK/www/slow/file"
chmod -R a+rX "$WORK/www"
ORIGIN_SERVER='location /slow/ { limit_rate 20k; }' start_origin small/0
URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 start_service --token "$TOKEN_B:tenant-b:user"

session() {  # $1 token: a session without a URL cache, connections enough for the engine
    curl -sf -X POST "$BASE/v1/sessions" -H "Authorization: Bearer $1" -H 'Content-Type: application/json' \
        -d '{"configuration": {"httpMaximumConnectionsPerHost": 64, "urlCache": null}}' | json id
}
run_b() {  # one batch of B's downloads in a new session; prints its seconds
    local result
    result=$(python3 "$CLIENT" "$BASE" "$TOKEN_B" "$(session "$TOKEN_B")" "$ORIGIN/small/" "$TASKS" 16 download 600 65536)
    [ "$(json ok <<<"$result")" = "$TASKS" ] || fail "B's tasks did not all succeed: $result"
    json seconds <<<"$result"
}
count_a() {  # $1 session, $2 state: A's tasks in that state (up to 10,000)
    local total=0 cursor="" page
    for _ in $(seq 1 10); do
        page=$(curl -sf "$BASE/v1/sessions/$1/tasks?state=$2&limit=1000${cursor:+&after=$cursor}" -H "Authorization: Bearer $TOKEN")
        total=$((total + $(python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))' <<<"$page")))
        cursor=$(json nextCursor <<<"$page")
        [ "$cursor" = "null" ] && break
    done
    echo "$total"
}

solo=()
for _ in $(seq 1 "$REPEATS"); do solo+=("$(run_b)"); done

A_SESSION=$(session "$TOKEN")
{
    for i in $(seq 0 $((BACKLOG - 1))); do
        printf 'next\nurl = "%s/v1/sessions/%s/tasks"\nheader = "Authorization: Bearer %s"\n' "$BASE" "$A_SESSION" "$TOKEN"
        printf 'header = "Content-Type: application/json"\noutput = "/dev/null"\nsilent\nwrite-out = "%%{http_code}\\n"\n'
        printf 'data = "{\\"kind\\": \\"download\\", \\"request\\": {\\"url\\": \\"%s/slow/file?%d\\"}, \\"resume\\": true}"\n' "$ORIGIN" "$i"
    done
} > "$WORK/backlog.curl"
created_at=$(now)
curl --parallel --parallel-max 16 -K "$WORK/backlog.curl" 2>"$WORK/backlog.err" | sort | uniq -c > "$WORK/backlog.codes"
grep -q " 201$" "$WORK/backlog.codes" || fail "A's backlog was not created: $(cat "$WORK/backlog.codes")"
echo "A's backlog: $BACKLOG slow downloads created in $(minus "$(now)" "$created_at") s ($(tr '\n' ' ' < "$WORK/backlog.codes"))"
a_running_before=$(count_a "$A_SESSION" running)

contended=()
for _ in $(seq 1 "$REPEATS"); do contended+=("$(run_b)"); done
a_running_after=$(count_a "$A_SESSION" running)
a_completed=$(count_a "$A_SESSION" completed)

solo_median=$(median "${solo[@]}")
contended_median=$(median "${contended[@]}")
echo
echo "tenant B, $TASKS downloads of 64 KiB (median of $REPEATS; each: ${solo[*]} s alone, ${contended[*]} s beside A)"
printf '  alone:         %6.2f s  %7.1f tasks/s\n' "$solo_median" "$(awk -v n="$TASKS" -v s="$solo_median" 'BEGIN { print n / s }')"
printf '  beside A:      %6.2f s  %7.1f tasks/s\n' "$contended_median" "$(awk -v n="$TASKS" -v s="$contended_median" 'BEGIN { print n / s }')"
printf '  share of solo: %5.0f %%\n' "$(awk -v a="$solo_median" -v b="$contended_median" 'BEGIN { print 100 * a / b }')"
echo "tenant A: $a_running_before running before B's runs, $a_running_after after; $a_completed of $BACKLOG completed by then"
