"""A cluster run's journal: every finished task kept in SQLite as it arrives, keyed on the run
(root FEN, moves, depth, split, task count) and on the task (id and a digest of its positions),
so a run started again with the same journal computes only the tasks that are missing, and a
journal made for another run is refused."""
from __future__ import annotations

import json
import os
import sqlite3
import time

import numpy as np

from .cluster_settings import ClusterError
from .cluster_tasks import Task


class Journal:
    """Finished tasks of one run, in SQLite (":memory:" when the run keeps none)."""

    def __init__(self, path: str | os.PathLike | None, run: dict):
        self.path = str(path) if path is not None else ":memory:"
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL" if path else "PRAGMA journal_mode=MEMORY")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self.db.execute("CREATE TABLE IF NOT EXISTS sessions (id INTEGER PRIMARY KEY AUTOINCREMENT,"
                            " started REAL NOT NULL)")
            self.db.execute("CREATE TABLE IF NOT EXISTS tasks (id INTEGER PRIMARY KEY, digest TEXT NOT NULL,"
                            " counts BLOB NOT NULL, nodes TEXT NOT NULL, seconds REAL, worker TEXT,"
                            " session INTEGER NOT NULL)")
            want = json.dumps(run, sort_keys=True)
            row = self.db.execute("SELECT value FROM meta WHERE name = 'run'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('run', ?)", (want,))
            elif row[0] != want:
                raise ClusterError(f"journal {self.path} was made for another run ({_describe(json.loads(row[0]))}), "
                                   f"not this one ({_describe(run)}); give a new journal file")
            self.session = self.db.execute("INSERT INTO sessions (started) VALUES (?)",
                                           (time.time(),)).lastrowid
        except sqlite3.DatabaseError as e:
            raise ClusterError(f"journal {self.path} cannot be used: {e}") from None

    def finished(self, tasks: list[Task]) -> dict[int, np.ndarray]:
        """{task id: counts} for the tasks already done; refuses a task whose positions differ."""
        by_id = {t.id: t for t in tasks}
        done = {}
        for tid, digest, blob in self.db.execute("SELECT id, digest, counts FROM tasks"):
            t = by_id.get(tid)
            if t is None or t.digest != digest:
                raise ClusterError(f"journal {self.path} holds task {tid} for other positions "
                                   "(written by another version?); give a new journal file")
            done[tid] = np.frombuffer(blob, np.uint64).copy()
        return done

    def record(self, task: Task, counts: np.ndarray, nodes: int, seconds: float, worker: str):
        self.db.execute("INSERT OR REPLACE INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (task.id, task.digest, np.ascontiguousarray(counts, np.uint64).tobytes(),
                         str(nodes), seconds, worker, self.session))

    def close(self):
        self.db.close()


def _describe(run: dict) -> str:
    moves = f" moves {run['moves']!r}" if run.get("moves") else ""
    kind = "divide" if run.get("divide") else "perft"
    return (f"{kind} depth {run.get('depth')} split {run.get('split')} tasks {run.get('tasks')} "
            f"of {run.get('fen')!r}{moves}")
