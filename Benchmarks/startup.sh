#!/usr/bin/env bash
# Start-up time with many persisted tasks: how long urlsessiond takes from exec to answering, on a data
# directory that already holds TASKS tasks.
#
#   Benchmarks/startup.sh [tasks=100000] [repeats=5]
#
# 1. The service makes its schema; one default session gets one task through the API (the template row).
#    The service stops, and Python's sqlite3 copies that row TASKS times in one transaction, each copy
#    with its own id, taskIdentifier and `task.didCreateTask` event: 90% completed, 9% suspended and 1%
#    running (a running task of a default session is what a kill -9 leaves; the start completes it with
#    -1005, as URLSession reports a lost connection). The session's counters follow.
# 2. REPEATS times: exec the binary and poll (every 5 ms) until `GET /readyz` answers 200 ("ready"), then
#    until no task is running any more ("recovered"); SIGTERM; the first run recovers the running tasks,
#    the later ones start on a settled directory. Peak RSS after each start.
# Aim (issue 5): ready in under 2 s with 100,000 tasks.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
TASKS=${1:-100000}
REPEATS=${2:-5}
source Benchmarks/lib.sh
bench_setup

start_service
SESSION=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions" -d '{"configuration":{"kind":"default"}}' | json id)
curl -sf --max-time 10 "${AUTH[@]}" -X POST "$BASE/v1/sessions/$SESSION/tasks" \
    -d '{"kind":"data","request":{"url":"https://origin.example/a"}}' > /dev/null
stop_pid "$SERVICE_PID" TERM
SERVICE_PID=

python3 - "$WORK/data/urlsessiond.sqlite" "$SESSION" "$TASKS" <<'PY'
import sqlite3, sys
path, session, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
db = sqlite3.connect(path)
db.row_factory = sqlite3.Row
task = dict(db.execute("SELECT * FROM task WHERE sessionId = ?", (session,)).fetchone())
event = dict(db.execute("SELECT * FROM event WHERE sessionId = ?", (session,)).fetchone())
task.pop("rowid", None)
task_columns = list(task)
event_columns = [c for c in event if c != "rowid"]
db.execute("DELETE FROM event WHERE sessionId = ?", (session,))
db.execute("DELETE FROM task WHERE sessionId = ?", (session,))
def tasks():
    for n in range(1, count + 1):
        row = dict(task)
        row["id"] = "tsk_%022d" % n
        row["taskIdentifier"] = n
        kind = n % 100
        if kind < 90:
            row["state"], row["completedAt"], row["startedAt"] = "completed", row["createdAt"], row["createdAt"]
        elif kind < 99:
            row["state"] = "suspended"
        else:
            row["state"], row["startedAt"], row["suspendCount"] = "running", row["createdAt"], 0
        yield tuple(row[c] for c in task_columns)
def events():
    for n in range(1, count + 1):
        row = dict(event)
        row["id"], row["sequence"], row["taskId"] = "evt_%022d" % n, n, "tsk_%022d" % n
        yield tuple(row[c] for c in event_columns)
with db:
    db.executemany("INSERT INTO task (%s) VALUES (%s)" % (",".join(task_columns), ",".join("?" * len(task_columns))), tasks())
    db.executemany("INSERT INTO event (%s) VALUES (%s)" % (",".join(event_columns), ",".join("?" * len(event_columns))), events())
    db.execute("UPDATE session SET lastTaskIdentifier = ?, lastSequence = ? WHERE id = ?", (count, count, session))
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
print("persisted: %d tasks (%d running), %d events, %.0f MiB" % (
    count, db.execute("SELECT COUNT(*) FROM task WHERE state = 'running'").fetchone()[0], count,
    db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0] / 1048576))
db.close()
PY

running() {
    curl -sf --max-time 5 "${AUTH[@]}" "$BASE/v1/sessions/$SESSION/tasks?state=running&limit=1" \
        | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))'
}

READY=() RECOVERED=()
for run in $(seq 1 "$REPEATS"); do
    rm -f "$WORK/port"
    started=$(now)
    "$BIN" serve --host 127.0.0.1 --port 0 --data-dir "$WORK/data" --port-file "$WORK/port" \
        --token "$TOKEN:bench:user" --log-level warning 2>>"$WORK/service.log" &
    SERVICE_PID=$!
    for _ in $(seq 1 6000); do  # at most 30 s
        if [ -s "$WORK/port" ]; then
            BASE=http://127.0.0.1:$(cat "$WORK/port")
            curl -sf --max-time 1 -o /dev/null "$BASE/readyz" && break
        fi
        sleep 0.005
    done
    ready=$(now)
    curl -sf --max-time 1 -o /dev/null "$BASE/readyz" || fail "not ready after 30 s"
    for _ in $(seq 1 3000); do [ "$(running)" = 0 ] && break; sleep 0.01; done
    recovered=$(now)
    [ "$(running)" = 0 ] || fail "tasks still running after 30 s"
    READY+=("$(minus "$ready" "$started")")
    RECOVERED+=("$(minus "$recovered" "$started")")
    echo "  run $run: ready ${READY[-1]}s, no task running ${RECOVERED[-1]}s, RSS $(rss) MiB"
    stop_pid "$SERVICE_PID" TERM
    SERVICE_PID=
done
echo
echo "| persisted tasks | ready (GET /readyz 200), median | running tasks settled, median | runs |"
echo "|---:|---:|---:|---:|"
echo "| $TASKS | $(median "${READY[@]}") s | $(median "${RECOVERED[@]}") s | $REPEATS |"
