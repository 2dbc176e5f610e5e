#!/usr/bin/env bash
# Two builds of urlsessiond side by side in one run: a benchmark script run ROUNDS times with each
# binary, alternating (A, B, A, B, ...) so both see the same machine at about the same time.
#
#   Benchmarks/compare.sh OLD_BIN NEW_BIN ROUNDS SCRIPT [ARGS...]
#   e.g. Benchmarks/compare.sh /tmp/urlsessiond-old .build/release/urlsessiond 3 Benchmarks/events.sh 8 2000 16
#
# Each run's whole report goes to OUT (default: a new temporary directory) as `<round>-old.txt` and
# `<round>-new.txt`; the rows that name urlsessiond, and the events summary lines, are printed per run.
set -euo pipefail
export LC_ALL=C
[ $# -ge 4 ] || { sed -n 2,9p "$0" >&2; exit 2; }
OLD=$1 NEW=$2 ROUNDS=$3 SCRIPT=$4
shift 4
OUT=${OUT:-$(mktemp -d /tmp/urlsessiond-compare.XXXXXX)}
for bin in "$OLD" "$NEW"; do [ -x "$bin" ] || { echo "$bin is not an executable file" >&2; exit 1; }; done
mkdir -p "$OUT"
echo "reports in $OUT"
for round in $(seq 1 "$ROUNDS"); do
    for side in old new; do
        bin=$OLD
        [ "$side" = new ] && bin=$NEW
        BIN=$bin "$SCRIPT" "$@" > "$OUT/$round-$side.txt" 2>&1 || { echo "round $round ($side) failed: $OUT/$round-$side.txt" >&2; exit 1; }
        echo "== round $round, $side ($bin)"
        grep -E 'urlsessiond|events/s|tasks/s|CPU' "$OUT/$round-$side.txt" | grep -v '^#' || true
    done
done
