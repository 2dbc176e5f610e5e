#!/usr/bin/env python3
"""The store's writes for small tasks, replayed by Python's sqlite3: a floor for what durable tasks cost.

    python3 Benchmarks/store_floor.py DATA_DIR/urlsessiond.sqlite [BATCH ...]

Takes the schema (tables, indexes, triggers), one completed task's row and its events from a database the
service wrote (e.g. left by a run of Benchmarks/transfers.sh with its WORK kept), and in a new database
beside /tmp replays, per task: the task inserted running with its first event (a transaction per BATCH
tasks), then its completion (metrics, response, kept body, four events; another transaction per BATCH).
WAL, synchronous=FULL, temp_store=MEMORY, as the service. Prints the CPU (user + system) per task for each
BATCH (default 4 8 16 64). Python adds about 4 us per statement, so this is an upper bound of the floor.
"""
import os
import resource
import sqlite3
import sys
import tempfile
import time


def replay(source, batch, count=2000):
    template = sqlite3.connect(source)
    cursor = template.execute("SELECT * FROM task WHERE state = 'completed' LIMIT 1")
    columns = [d[0] for d in cursor.description]
    task = dict(zip(columns, cursor.fetchone()))
    events = template.execute("SELECT type, data FROM event WHERE taskId = ? ORDER BY sequence", (task["id"],)).fetchall()
    schema = [r[0] for r in template.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'")]
    cursor = template.execute("SELECT * FROM session WHERE id = ?", (task["sessionId"],))
    session_columns = [d[0] for d in cursor.description]
    session = cursor.fetchone()
    directory = tempfile.mkdtemp()
    db = sqlite3.connect(os.path.join(directory, "floor.sqlite"), isolation_level=None)
    for pragma in ("journal_mode = WAL", "synchronous = FULL", "temp_store = MEMORY", "foreign_keys = ON"):
        db.execute("PRAGMA " + pragma)
    for statement in schema:
        db.execute(statement)
    db.execute(f"INSERT INTO session ({','.join(session_columns)}) VALUES ({','.join('?' * len(session_columns))})", session)
    session_id = task["sessionId"]
    sequence = 10**6

    def append(task_id, kinds):
        nonlocal sequence
        db.execute("UPDATE session SET lastSequence = lastSequence + ? WHERE id = ?", (len(kinds), session_id))
        for kind, data in kinds:
            sequence += 1
            db.execute(
                "INSERT INTO event (id, sessionId, sequence, taskId, type, timestamp, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (f"evt_{sequence:022d}", session_id, sequence, task_id, kind, "2026-11-25 00:00:00.000", data))

    before, started = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    for first in range(0, count, batch):
        ids = [f"tsk_{i:022d}" for i in range(first, min(count, first + batch))]
        db.execute("BEGIN IMMEDIATE")
        for n, task_id in enumerate(ids):
            row = dict(task, rowid=None, id=task_id, taskIdentifier=10**6 + first + n, state="running", metrics=None,
                       response=None, completedAt=None, fileExpiresAt=None, storedBytes=0)
            db.execute(f"INSERT INTO task ({','.join(columns)}) VALUES ({','.join('?' * len(columns))})", [row[c] for c in columns])
            append(task_id, events[:1])
        db.execute("COMMIT")
        db.execute("BEGIN IMMEDIATE")
        for task_id in ids:
            db.execute(
                "UPDATE task SET state = 'completed', completedAt = ?, metrics = ?, response = ?, fileExpiresAt = ?, "
                "storedBytes = 1024 WHERE id = ?",
                ("2026-11-25 00:00:00.000", task["metrics"], task["response"], "2026-11-26 00:00:00.000", task_id))
            db.execute("INSERT OR REPLACE INTO taskBody (taskId, data) VALUES (?, ?)", (task_id, os.urandom(1024)))
            append(task_id, events[1:])
        db.execute("COMMIT")
    after, ended = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    db.close()
    for name in os.listdir(directory):
        os.remove(os.path.join(directory, name))
    os.rmdir(directory)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"batch {batch:3d}: {cpu * 1e6 / count:5.0f} us CPU per task "
          f"(user {(after.ru_utime - before.ru_utime) * 1e6 / count:.0f}, system {(after.ru_stime - before.ru_stime) * 1e6 / count:.0f}), "
          f"{(ended - started) * 1e6 / count:.0f} us wall per task")


if __name__ == "__main__":
    for size in [int(a) for a in sys.argv[2:]] or [4, 8, 16, 64]:
        replay(sys.argv[1], size)
