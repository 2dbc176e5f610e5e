#!/usr/bin/env bash
# Small tasks/s and events/s with 1, 2 and 3 nodes on one PostgreSQL, and the SQLite single node beside
# them, in one run on one machine (so the figures show what sharing a database costs, not a speed-up).
#
#   Benchmarks/cluster.sh [tasks=2000] [parallel=16] [sessions=8]
#   (validate quickly: Benchmarks/cluster.sh 200)
#
# 1. An origin nginx serving TASKS files of 1 KiB (as transfers.sh and events.sh), and one PostgreSQL from
#    the Debian package (initdb as `postgres` in the throw-away directory, 127.0.0.1 on a free port, trust
#    authentication; durable as shipped: fsync and synchronous_commit on, as SQLite's synchronous=FULL).
# 2. Configurations, in this order (CONFIGS="sqlite pg1 pg2 pg3" by default): `sqlite` is one node on SQLite;
#    `pgN` is N nodes on a fresh database of that PostgreSQL. The nodes of a configuration share one data
#    directory and secret key (the documented layout); each has URLSESSIOND_MAX_TRANSFERS=PARALLEL (the
#    tenant's cap too), so three nodes have three times the slots, as adding nodes does.
# 3. SESSIONS sessions (created through node 1; no URL cache, httpMaximumConnectionsPerHost PARALLEL, no
#    delegate: events are written to the outbox and read by the client, not POSTed), then
#    Benchmarks/transfers_client.py creates TASKS data tasks with `"resume": true`, round-robin over the
#    sessions, and **round-robin over the nodes' ports** (task i through node i mod N; CREATE_VIA=first
#    sends every create to node 1), by `curl --parallel` over CLIENT_CONNECTIONS connections (default 16;
#    CREATOR=python|batch as in transfers.sh), and waits until no task is running (polling node 1); it then
#    checks every task (200, 1 KiB), untimed.
# 4. Reported per configuration, from the first create (the client's clock) to the last task's
#    `task.didCompleteWithError` event (the writing node's clock, the same machine):
#    - tasks/s: TASKS completed in that interval;
#    - events/s: every event the sessions' feeds hold (read through node 1 afterwards, untimed, each
#      session checked gap-free, 1…n) over the same interval;
#    - the tasks each node ran (`task.node`), the nodes' and PostgreSQL's CPU time from the first create
#      until the clock stops (read by the client then, so its untimed check is not counted), and
#      the deadlocks PostgreSQL detected (the store runs such a transaction again).
#    - statements: every statement the nodes ran in the database from the first create to the end (its
#      own `pg_stat_statements`, top level, transaction control included), per task.
#    - node 1's CPU per task it ran, by thread (`thread_ticks`: the kernel's names), after the table.
# PG_RTT_MS=1 puts Benchmarks/latency_proxy.py between the nodes and PostgreSQL: a round trip of that
# many milliseconds, as a database on another machine of the same zone.
# One run of each configuration (REPEATS=N runs the whole sequence N times; every run is printed).
# Everything runs on loopback with OS-chosen ports in a throw-away directory that is removed at the end.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
TASKS=${1:-2000}
PARALLEL=${2:-16}
SESSIONS=${3:-8}
CONFIGS=${CONFIGS:-sqlite pg1 pg2 pg3}
# Extra server settings for an experiment, e.g. PG_SETTINGS="-c synchronous_commit=off" (not durable).
# PG_LOG=FILE keeps PostgreSQL's log there (with PG_SETTINGS="-c session_preload_libraries=auto_explain
# -c auto_explain.log_min_duration=5 -c auto_explain.log_analyze=on": the plans of slow statements).
PG_SETTINGS=${PG_SETTINGS:-}
PG_RTT_MS=${PG_RTT_MS:-0}
# PROFILE=DIR: `perf record -g` of node 1 from the first create until the clock stops, left in DIR
# (PERF_CALLGRAPH= another call-graph mode, as in events.sh: `--call-graph dwarf,16384` resolves libsqlite3).
PROFILE=${PROFILE:-}
SPLITS=()
CREATE_VIA=${CREATE_VIA:-all}
CLIENT_CONNECTIONS=${CLIENT_CONNECTIONS:-16}
REPEATS=${REPEATS:-1}
TIMEOUT=${TIMEOUT:-300}
export CREATOR=${CREATOR:-curl}
source Benchmarks/lib.sh
bench_setup  # BIN (or `make release`), WORK, TOKEN, AUTH; the EXIT trap is replaced below (it still runs)
CLIENT=$PWD/Benchmarks/transfers_client.py
chmod 755 "$WORK"  # nginx workers (www-data) and PostgreSQL (postgres) reach their directories inside

PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] || fail "PostgreSQL is not installed: make test-deps"
[ "$(id -u)" = 0 ] || fail "run as root: PostgreSQL is started as the postgres user (runuser)"
NODE_PIDS=()
PG_DATA=$WORK/pg/data
PG_STARTED=0
cluster_cleanup() {
    local pid
    for pid in "${NODE_PIDS[@]}"; do stop_pid "$pid" TERM; done
    [ -n "${PROXY_PID:-}" ] && kill "$PROXY_PID" 2>/dev/null
    [ "$PG_STARTED" = 1 ] && runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w -t 30 stop >/dev/null 2>&1 || true
    [ -n "${PG_LOG:-}" ] && cp "$WORK/pg/server.log" "$PG_LOG" 2>/dev/null
    bench_cleanup
}
trap cluster_cleanup EXIT

# --- Origin: nginx serving the small files. ---
small_files "$TASKS"
start_origin small/0

# --- PostgreSQL: one cluster, a database per configuration. ---
mkdir -p "$WORK/pg"
chown postgres:postgres "$WORK/pg"
PG_PORT=$(free_port)
runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -E UTF8 -A trust >"$WORK/pg/initdb.log" 2>&1 \
    || fail "initdb: $(tail -n 3 "$WORK/pg/initdb.log")"
PG_STARTED=1
runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$WORK/pg/server.log" -w -t 30 \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$WORK/pg -c max_connections=200 -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=top ${PG_SETTINGS:-}" \
    start >/dev/null || fail "PostgreSQL did not start: $(tail -n 5 "$WORK/pg/server.log")"
psql_su() { runuser -u postgres -- "$PG_BIN/psql" -h "$WORK/pg" -p "$PG_PORT" -d "${2:-postgres}" -AtX -v ON_ERROR_STOP=1 -c "$1"; }
PG_VERSION=$(psql_su 'SHOW server_version' | cut -d' ' -f1)
DB_PORT=$PG_PORT
if [ "$PG_RTT_MS" != 0 ]; then
    python3 Benchmarks/latency_proxy.py 0 "$PG_PORT" "$(awk -v r="$PG_RTT_MS" 'BEGIN { print r / 2 }')" "$WORK/pg-proxy-port" &
    PROXY_PID=$!
    for _ in $(seq 1 100); do [ -s "$WORK/pg-proxy-port" ] && break; sleep 0.05; done
    DB_PORT=$(cat "$WORK/pg-proxy-port")
fi
SECRET_KEY=$(head -c 32 /dev/urandom | base64 -w0)

sync  # the origin's files and the cluster are written out before anything is measured

nodes_cpu() { local pid sum=0; for pid in ${NODE_PID_LIST:-}; do sum=$((sum + $(cpu "$pid"))); done; echo "$sum"; }
pg_cpu() {  # the postmaster with its reaped children, and its live children (the nodes' backends)
    local master child sum
    master=$(head -n 1 "$PG_DATA/postmaster.pid")
    sum=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$master/stat")
    for child in $(pgrep -P "$master"); do sum=$((sum + $(cpu "$child"))); done
    echo "$sum"
}
# The client reads both the moment its clock stops (AT_DONE), so its untimed check is not counted.
export -f cpu nodes_cpu pg_cpu thread_ticks
export PG_DATA
ticks() { awk -v t="$1" -v h="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / h }'; }

# start_nodes DIR COUNT [DATABASE_URL]: COUNT nodes on one data directory; sets NODE_PIDS and BASES.
start_nodes() {
    local dir=$1 count=$2 url=${3:-} i
    NODE_PIDS=() BASES=
    mkdir -p "$dir/data"
    for i in $(seq 1 "$count"); do
        URLSESSIOND_DATABASE_URL=$url URLSESSIOND_NODE_ID=node-$i URLSESSIOND_SECRET_KEY=$SECRET_KEY \
        URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 URLSESSIOND_MAX_TRANSFERS=$PARALLEL URLSESSIOND_TENANT_MAX_TRANSFERS=$PARALLEL \
            "$BIN" serve --host 127.0.0.1 --port 0 --data-dir "$dir/data" --port-file "$dir/port-$i" \
            --token "$TOKEN:bench:user" --log-level warning 2>"$dir/node-$i.log" &
        NODE_PIDS+=($!)
        for _ in $(seq 1 300); do [ -s "$dir/port-$i" ] && break; sleep 0.05; done
        [ -s "$dir/port-$i" ] || { tail -n 20 "$dir/node-$i.log" >&2; fail "node $i did not start"; }
        BASES=${BASES:+$BASES,}http://127.0.0.1:$(cat "$dir/port-$i")
    done
}

# run_config NAME RUN: one measurement; appends a JSON line to $WORK/results.jsonl.
run_config() {
    local name=$1 run=$2 dir=$WORK/$1-$2 count url= ids= id n create
    case "$name" in
        sqlite) count=1 ;;
        pg[1-9]) count=${name#pg}
            psql_su "CREATE DATABASE bench_${name}_$run" >/dev/null
            psql_su "CREATE EXTENSION pg_stat_statements" "bench_${name}_$run" >/dev/null
            url=postgres://postgres@127.0.0.1:$DB_PORT/bench_${name}_$run ;;
        *) fail "unknown configuration $name (sqlite, pg1, pg2, …)" ;;
    esac
    mkdir -p "$dir"
    start_nodes "$dir" "$count" "$url"
    local first=${BASES%%,*}
    for n in $(seq 1 "$SESSIONS"); do
        id=$(curl -sf --max-time 10 "${AUTH[@]}" -X POST "$first/v1/sessions" -d "{\"configuration\":{\"kind\":\"default\",
            \"httpMaximumConnectionsPerHost\":$PARALLEL,\"urlCache\":null},\"sessionDescription\":\"cluster benchmark\"}" | json id) \
            || fail "creating session $n on $name"
        ids=${ids:+$ids,}$id
    done
    create=$BASES
    [ "$CREATE_VIA" = first ] && create=$first
    local nodes0 pg0 nodes1 pg1 deadlocks0 deadlocks threads0
    deadlocks() { grep -c 'ERROR:  deadlock detected' "$WORK/pg/server.log" || true; }
    export NODE_PID_LIST="${NODE_PIDS[*]}"
    nodes0=$(nodes_cpu); pg0=$(pg_cpu); deadlocks0=$(deadlocks); threads0=$(thread_ticks "${NODE_PIDS[0]}")
    local proxy0=0
    [ -z "${PROXY_PID:-}" ] || proxy0=$(cpu "$PROXY_PID")
    [ -z "$url" ] || psql_su "SELECT pg_stat_statements_reset()" "bench_${name}_$run" >/dev/null
    if [ -n "$PROFILE" ]; then  # node 1 sampled from the first create until the clock stops
        perf record -F 999 ${PERF_CALLGRAPH:--g} -p "${NODE_PIDS[0]}" -o "$PROFILE/perf-$name-$run.data" 2>/dev/null &
        PERF_PID=$!
        sleep 0.5
    fi
    AT_DONE='echo $(nodes_cpu) $(pg_cpu 2>/dev/null || echo 0); thread_ticks "$NODE_1" > "$THREADS_FILE"
        [ -z "$PERF_PID" ] || kill -INT "$PERF_PID"' \
    PERF_PID=${PERF_PID:-} NODE_1=${NODE_PIDS[0]} THREADS_FILE=$dir/threads-at-done \
    timeout $((TIMEOUT + 60)) python3 "$CLIENT" "$create" "$TOKEN" "$ids" "$ORIGIN/small/" "$TASKS" \
        "$CLIENT_CONNECTIONS" data "$TIMEOUT" 1024 > "$dir/client.json" || {
        for n in $(seq 1 "$count"); do echo "--- node $n:" >&2; grep -v '^\s*$' "$dir/node-$n.log" | tail -n 8 >&2 || true; done
        [ -z "$url" ] || { echo "--- PostgreSQL (the last deadlock it reported):" >&2
            grep -A12 'ERROR:  deadlock detected' "$WORK/pg/server.log" | tail -n 13 | cut -c1-400 >&2 || true; }
        fail "$name: tasks: $(cat "$dir/client.json")"; }
    read -r nodes1 pg1 < <(python3 -c 'import json, sys; print(json.load(sys.stdin)["atDone"])' < "$dir/client.json")
    if [ -n "${PERF_PID:-}" ]; then
        stop_pid "$PERF_PID" INT
        PERF_PID=
        echo "  profile of node 1: $PROFILE/perf-$name-$run.data (perf report -i …)" >&2
    fi
    deadlocks=$(($(deadlocks) - deadlocks0))
    [ -z "${PROXY_PID:-}" ] || echo "  the delay proxy's CPU (on these cores too): $(ticks $(($(cpu "$PROXY_PID") - proxy0))) s" >&2
    local statements=0
    [ -z "$url" ] || statements=$(psql_su "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND query NOT LIKE '%pg_stat_statements%'" "bench_${name}_$run")
    # PG_TOP=N: the N statements that took the most time in PostgreSQL, to stderr (what a task costs,
    # statement by statement): calls, total milliseconds executing and planning (planning is 0 unless
    # PG_SETTINGS="-c pg_stat_statements.track_planning=on"), rows, the statement's beginning; then the
    # totals of every statement.
    [ -z "$url" ] || [ "${PG_TOP:-0}" = 0 ] || psql_su "SELECT calls, round(total_exec_time), round(total_plan_time), rows,
            left(regexp_replace(query, '\s+', ' ', 'g'), 140)
        FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY total_exec_time DESC LIMIT $PG_TOP" "bench_${name}_$run" >&2
    [ -z "$url" ] || [ "${PG_TOP:-0}" = 0 ] || psql_su "SELECT 'all statements: calls ' || sum(calls) || ', executing '
            || round(sum(total_exec_time)) || ' ms, planning ' || round(sum(total_plan_time)) || ' ms'
        FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND query NOT LIKE '%pg_stat_statements%'" "bench_${name}_$run" >&2
    local per_node='{}'
    if [ -n "$url" ]; then
        per_node=$(psql_su "SELECT coalesce(node, '-'), count(*) FROM task GROUP BY 1 ORDER BY 1" "bench_${name}_$run" \
            | python3 -c 'import json, sys; print(json.dumps({l.split("|")[0]: int(l.split("|")[1]) for l in sys.stdin if "|" in l}))')
    fi
    local node1_tasks=$TASKS  # node 1's CPU by thread, per task it ran
    [ "$count" = 1 ] || node1_tasks=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1]).get("node-1", 0))' "$per_node")
    [ "$node1_tasks" = 0 ] || SPLITS+=("$name, run $run (node 1, $node1_tasks tasks): $(cpu_by_thread "$threads0" \
        "$(cat "$dir/threads-at-done")" "$node1_tasks")")
    # Every event of the sessions, through node 1 (untimed): count, gap-free, the last completion's time.
    python3 - "$first" "$TOKEN" "$ids" "$dir/client.json" "$name" "$count" "$TASKS" "$per_node" \
        "$(ticks $((nodes1 - nodes0)))" "$(ticks $((pg1 - pg0)))" "$CREATE_VIA" "$deadlocks" "$statements" >> "$WORK/results.jsonl" <<'PY' \
        || fail "$name: reading the events"
import http.client, json, sys, urllib.parse
from datetime import datetime
base, token, ids, client_path, name, nodes, tasks, per_node, cpu_nodes, cpu_pg, via, deadlocks, statements = sys.argv[1:14]
client = json.load(open(client_path))
url = urllib.parse.urlsplit(base)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
events = completions = 0
last = None
problems = []
for session in ids.split(","):
    after, sequences = 0, []
    while True:
        conn.request("GET", f"/v1/sessions/{session}/events?after={after}&limit=1000",
                     headers={"Authorization": f"Bearer {token}"})
        response = conn.getresponse()
        page = json.loads(response.read())
        if response.status != 200:
            raise SystemExit(f"events of {session}: {response.status} {page}")
        for event in page["items"]:
            sequences.append(event["sequence"])
            if event["type"] == "task.didCompleteWithError":
                completions += 1
                at = datetime.fromisoformat(event["timestamp"].replace("Z", "+00:00")).timestamp()
                last = at if last is None else max(last, at)
        if not page["items"] or not page.get("nextCursor"):
            break
        after = page["items"][-1]["sequence"]
    if sequences != list(range(1, len(sequences) + 1)):
        problems.append(f"{session}: sequences not 1…{len(sequences)}")
    events += len(sequences)
if completions != int(tasks):
    problems.append(f"{completions} completion events for {tasks} tasks")
seconds = (last - client["startedAt"]) if last else float("nan")
print(json.dumps({
    "config": name, "nodes": int(nodes), "tasks": int(tasks), "ok": client["ok"], "seconds": round(seconds, 3),
    "clientSeconds": client["seconds"], "tasksPerSecond": round(int(tasks) / seconds, 1),
    "events": events, "eventsPerSecond": round(events / seconds, 1), "perNode": json.loads(per_node),
    "cpuNodes": float(cpu_nodes), "cpuPostgres": float(cpu_pg), "createVia": via, "deadlocks": int(deadlocks),
    "statements": int(statements),
    "problems": problems}))
PY
    for pid in "${NODE_PIDS[@]}"; do stop_pid "$pid" TERM; done
    NODE_PIDS=()
    sync
}

LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
: > "$WORK/results.jsonl"
for run in $(seq 1 "$REPEATS"); do
    for config in $CONFIGS; do
        run_config "$config" "$run"
        tail -n 1 "$WORK/results.jsonl" | python3 -c 'import json, sys; r = json.load(sys.stdin)
print("  %s: %.0f tasks/s, %.0f events/s%s" % (r["config"], r["tasksPerSecond"], r["eventsPerSecond"],
    "  PROBLEMS: %s" % r["problems"] if r["problems"] else ""))' >&2
    done
done

# --- Results. ---
status=0
python3 - "$WORK/results.jsonl" "$TASKS" "$PARALLEL" "$SESSIONS" "$CLIENT_CONNECTIONS" "$CREATOR" "$LOAD" \
    "$(nproc)" "$PG_VERSION" "$PG_RTT_MS" <<'PY' || status=$?
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
tasks, parallel, sessions, connections, creator, load, cores, pg, rtt_ms = sys.argv[2:11]
rtt = f", behind a {rtt_ms} ms round-trip proxy" if rtt_ms != "0" else ""
via = rows[0]["createVia"] if rows else "all"
print(f"Cluster: {tasks} data tasks of 1 KiB over {sessions} sessions, {parallel} transfers per node, created by "
      f"{creator} over {connections} connections {'round-robin over the nodes' if via == 'all' else 'all through node 1'}; "
      f"PostgreSQL {pg} on the same machine{rtt}; {cores} cores, load average {load} at the start")
print()
print("| store | nodes | tasks/s | events | events/s | first create → last completion | tasks per node | CPU: nodes / PostgreSQL | CPU per task: nodes / PostgreSQL | statements per task |")
print("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|")
for r in rows:
    store = "SQLite" if r["config"] == "sqlite" else "PostgreSQL"
    per = ", ".join(f"{k} {v}" for k, v in sorted(r["perNode"].items())) or "—"
    pgcpu = f"{r['cpuPostgres']:.1f} s" if store == "PostgreSQL" else "—"
    print(f"| {store} | {r['nodes']} | **{r['tasksPerSecond']:,.0f}** | {r['events']:,} | **{r['eventsPerSecond']:,.0f}** | "
          f"{r['seconds']:.3f} s | {per} | {r['cpuNodes']:.1f} s / {pgcpu} | "
          f"{r['cpuNodes'] / r['tasks'] * 1e6:,.0f} µs / " + (f"{r['cpuPostgres'] / r['tasks'] * 1e6:,.0f} µs" if store == "PostgreSQL" else "—") +
          " | " + (f"{r['statements'] / r['tasks']:.2f}" if store == "PostgreSQL" else "—") + " |")
problems = [f"{r['config']}: {p}" for r in rows for p in r["problems"]] + \
    [f"{r['config']}: {r['ok']}/{r['tasks']} tasks checked ok" for r in rows if r["ok"] != r["tasks"]]
print()
print("Checks: " + ("; ".join(problems) if problems else
      "every task completed with 200 and 1 KiB; every session's events gap-free (1…n); one completion event per task."))
deadlocks = ", ".join(f"{r['config']} {r['deadlocks']}" for r in rows if r["config"] != "sqlite")
if deadlocks:
    print(f"Deadlocks PostgreSQL detected (each transaction retried, up to eight times): {deadlocks}.")
sys.exit(1 if problems else 0)
PY
echo
echo "Node 1's CPU per task by thread (the kernel's names: \`engine\` is the transfers' libcurl loop, \`MHD-worker\` the"
echo "API's HTTP server, the concurrency pool's \`oot.default-qos\` and \`-qos.overcommit\` the rest, the store's queries too):"
printf '  %s\n' "${SPLITS[@]}"
exit "$status"
