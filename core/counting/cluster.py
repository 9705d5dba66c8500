"""Deep perft on a Dask cluster: split, merge transpositions, count on workers, journal.

    result = run_perft(START_FEN, "", depth=8, split=4, local=2, journal="d8.sqlite")
    result.nodes, result.tasks, result.merge_ratio

A run is described by a ClusterRun (what it counts, where, with which journal), checked once.
Its errors name the run's parameters as ClusterRun names them ("split must be between ..."):
a front end writes its own word for each with ClusterError.spelled (the CLI's `--split`).

The tree is expanded `split` plies by core.counting.split, which keeps each distinct
position (compared field by field, never by key alone) once with its multiplicity. The unique positions are packed into tasks of
about equal estimated cost; each task runs on a Dask worker with the jitted core
(and, with hash_exp >= 0, that worker process's own hash table) and returns one
count per position. The answer is the sum of multiplicity x count.

Every finished task is written to the journal (SQLite) as it arrives, keyed on the
run (root FEN, moves, depth, split, task count) and on the task (id and a digest
of its positions), so a run started again with the same journal only computes the
tasks that are missing, and a journal made for another run is refused. A worker
lost mid-task is Dask's business: it reschedules the task elsewhere. A run with
tasks still missing at the end raises ClusterError saying how many; a partial sum
is never returned.

Workers need only this package: on another machine,
    pip install perftscope && dask worker tcp://SCHEDULER:8786
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import re
import socket
import sqlite3
import time
import uuid
from concurrent.futures import CancelledError
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import kernels
from ..errors import PerftscopeError
from ..kernels import expand as _x
from ..kernels import hashtable as _h
from ..kernels import perft as _k
from ..kernels import search as _s
from ..limits import CLUSTER_TASKS, CLUSTER_WORKER_WAIT, SPLIT_LIMIT, TABLE_MAX_EXP, WORKERS_LIMIT, table_bytes
from ..board.position import Position
from .split import Split, SplitError, split_positions

DEFAULT_TASKS = CLUSTER_TASKS       # fixed, not per worker: a journal resumes on any cluster size
RETRIES = 2                # a task that raised is tried again this often
WORKER_WAIT = CLUSTER_WORKER_WAIT   # seconds a run waits while the scheduler has no worker
WAIT_NOTICE = 0.0          # seconds without a worker before saying so: at the first look
WATCH_EVERY = 0.5          # seconds between looks at the scheduler's workers
LOST_SETTLE = 1.0          # seconds for the client to notice a lost scheduler after a failed call
CRASH_LIMIT = 3            # workers dying this run, with no task finished: a crash loop
YOUNG = 60.0               # a worker gone within this many seconds of joining died young
JOURNAL_FORMAT = 2          # 2: rows in generation order (core.counting.split)


class ClusterError(PerftscopeError):
    """A cluster run that cannot start, cannot reach its scheduler, or did not finish.

    The message names the run's parameters in braces ({split}, {journal}, ClusterRun's
    fields): str() writes each name as it is, spelled() as the caller calls it."""

    def __str__(self):
        return self.spelled({})

    def spelled(self, words: dict[str, str]) -> str:
        """The message with each {parameter} written as words[parameter] (default: its name)."""
        return _PARAMETER.sub(lambda m: words.get(m.group(1), m.group(1)), self.template)

    @property
    def template(self) -> str:
        return super().__str__()


_PARAMETER = re.compile(r"\{(" + "|".join(("fen", "moves", "depth", "split", "divide", "tasks", "hash_exp",
                                             "address", "local", "journal", "wait_workers")) + r")\}")


# --- tasks -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Task:
    id: int
    rows_index: np.ndarray     # which rows of the split
    rows: np.ndarray
    mult: np.ndarray
    owner: np.ndarray
    cost: int
    digest: str


def make_tasks(split: Split, depth: int, tasks: int) -> list[Task]:
    """Pack split's positions into at most `tasks` tasks of about equal estimated cost
    (perft 2 of each position, a fair proxy for the subtree's size)."""
    T = kernels.table()
    rem = depth - split.plies
    bins = max(1, min(tasks, split.unique))
    costs = _x.estimate(T, split.rows, rem)
    order = np.argsort(-costs, kind="stable")
    where = _x.balance(costs, order, bins)
    out = []
    for b in range(bins):
        idx = np.flatnonzero(where == b)
        rows = np.ascontiguousarray(split.rows[idx])
        mult, owner = split.mult[idx], split.owner[idx]
        h = hashlib.sha256()
        for part in (np.int64(rem).tobytes(), rows.tobytes(), mult.tobytes(), owner.tobytes()):
            h.update(part)
        out.append(Task(id=b, rows_index=idx, rows=rows, mult=mult, owner=owner, cost=int(costs[idx].sum()),
                        digest=h.hexdigest()[:24]))
    return out


# --- what a worker runs ----------------------------------------------------------------

_TABLES: dict[int, np.ndarray] = {}


def _memory_limit() -> int | None:
    """The Dask worker's memory limit in bytes (None outside a worker or without a limit)."""
    try:
        from distributed import get_worker
        return int(get_worker().memory_manager.memory_limit) or None
    except (ImportError, ValueError, AttributeError, TypeError):
        return None


def _worker_table(hash_exp: int) -> np.ndarray:
    # one table per worker process, kept across tasks: an entry stays true in any task
    if hash_exp not in _TABLES:
        need, limit = table_bytes(hash_exp), _memory_limit()
        if limit and need > limit // 2:
            raise ClusterError(f"worker {socket.gethostname()}:{os.getpid()} has a memory limit of "
                               f"{limit / 2**30:.1f} GiB; a table of 2^{hash_exp} entries needs "
                               f"{need / 2**30:.1f} GiB (use a smaller {{hash_exp}})")
        _TABLES.clear()
        _TABLES[hash_exp] = _h.new_table(max(hash_exp, _h.MIN_EXP))
    return _TABLES[hash_exp]


def count_task(rows: np.ndarray, depth: int, hash_exp: int = -1):
    """perft `depth` of every row, on this process's core. Returns (counts, seconds, who)."""
    start = time.perf_counter()
    T = kernels.table()
    rows = np.ascontiguousarray(rows, np.uint64)
    out = np.zeros(rows.shape[0], np.uint64)
    if hash_exp >= 0:
        H, min_depth = _worker_table(hash_exp), _s.DEFAULT_MIN_DEPTH
    else:
        H, min_depth = np.zeros(_h.BUCKET_WORDS, np.uint64), _s.NO_TABLE
    ctr = np.zeros(_s.SLOT, np.int64)
    stop = np.zeros(1, np.int64)
    _s.run_worker(T, rows, depth, out, np.zeros(1, np.int64), _k.new_move_stack(), H,
                  _h.bucket_mask(H), min_depth, ctr, 0, stop)
    return out, time.perf_counter() - start, f"{socket.gethostname()}:{os.getpid()}"


# --- the journal -----------------------------------------------------------------------

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


# --- the scheduler's workers ----------------------------------------------------------

class WorkerWatch:
    """Whether the scheduler has a worker, and which workers died on it.

    Dask waits for workers forever, and a worker that dies at start-up is restarted
    by its nanny (or its supervisor) and dies again, forever. So the run looks: with
    no worker for `wait` seconds it gives up, and CRASH_LIMIT workers dying during
    the run before any task finished is a crash loop, reported at once. Deaths are
    read from the scheduler's own event log (add-worker / remove-worker), so a worker
    that lived half a second between two looks is still seen, and one from before
    this run still explains why there is no worker now."""

    def __init__(self, client, wait: float, notify: Callable[[str], None] | None = None):
        self.client = client
        self.address = client.scheduler.address
        self.wait = wait
        self.notify = notify or (lambda message: None)
        self.none_since: float | None = None
        self.noticed = False
        self.last_look = 0.0
        self.before = {key for key, _ in self._deaths()}    # deaths from before this run

    def _deaths(self) -> list[tuple[tuple[float, str], float]]:
        """((when, worker), seconds it lived) for each worker that left unexpectedly."""
        try:
            events = self.client.get_events("all")
        except Exception:      # noqa: BLE001  (an old scheduler without the event log)
            return []
        joined: dict[str, float] = {}
        out = []
        for when, msg in events:
            if not isinstance(msg, dict):
                continue
            if msg.get("action") == "add-worker":
                joined[msg.get("worker")] = when
            elif msg.get("action") == "remove-worker" and not msg.get("expected", False):
                w = msg.get("worker")
                out.append(((when, w), when - joined.get(w, when)))
        return out

    def _workers(self) -> int:
        return len(self.client.scheduler_info(n_workers=-1).get("workers", {}))

    def _young_deaths(self, new_only: bool) -> list[tuple[str, float]]:
        return [(key[1], lived) for key, lived in self._deaths()
                if lived < YOUNG and not (new_only and key in self.before)]

    def workers(self, tasks_finished: int = 0, force: bool = False) -> int:
        """Live workers now; raises ClusterError for a crash loop or a wait run out."""
        now = time.monotonic()
        if not force and now - self.last_look < WATCH_EVERY:
            return -1
        self.last_look = now
        n = self._workers()
        new_deaths = self._young_deaths(new_only=True)
        if tasks_finished == 0 and len(new_deaths) >= CRASH_LIMIT:
            raise ClusterError(self._crash_message(new_deaths, "during this run"))
        if n:
            self.none_since = None
            return n
        if self.none_since is None:
            self.none_since = now
        waited = now - self.none_since
        if waited >= self.wait:
            young = self._young_deaths(new_only=False)
            if young:
                raise ClusterError(self._crash_message(young, f"and none is there after {self.wait:g} s"))
            raise ClusterError(f"no worker at the scheduler {self.address} for {self.wait:g} s "
                               f"({{wait_workers}}); start one with: dask worker {self.address}")
        if waited >= WAIT_NOTICE and not self.noticed:
            self.noticed = True
            self.notify(f"the scheduler at {self.address} has no worker; waiting up to {self.wait:g} s "
                        f"for one (start one with: dask worker {self.address})")
        return 0

    def _crash_message(self, deaths, when: str) -> str:
        worker, lived = deaths[-1]
        return (f"workers keep dying at the scheduler {self.address}: {len(deaths)} joined and died "
                f"within {YOUNG:.0f} s of starting {when} (the last, {worker}, after {lived:.1f} s); "
                f"see the workers' own logs")

    def wait_for_one(self):
        """Block until the scheduler has a worker (or raise as `workers` does)."""
        while self.workers(force=True) <= 0:
            time.sleep(WATCH_EVERY)


# --- a run -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Progress:
    tasks_done: int
    tasks_total: int
    nodes: int                 # so far, the journal's included
    elapsed: float
    nodes_run: int = 0         # counted in this session: what NPS is made of

    @property
    def nps(self) -> float:
        return self.nodes_run / self.elapsed if self.elapsed > 0 else 0.0


@dataclass(frozen=True)
class ClusterResult:
    root_fen: str
    moves: str                 # played from root_fen first
    fen: str                   # the position counted
    depth: int
    split: int
    nodes: int
    divide: dict[str, int] | None
    tasks: int
    tasks_run: int             # computed in this session
    tasks_from_journal: int
    unique_positions: int
    total_positions: int
    workers: int
    seconds: float
    dashboard: str | None = None   # None without bokeh (pip install 'perftscope[dashboard]')
    scheduler: str | None = None
    session: int = 1
    task_seconds: float = 0.0  # summed over the tasks run in this session
    compute_seconds: float = 0.0   # first task submitted to last result (seconds also counts the set-up)
    nodes_run: int = 0         # nodes of the tasks computed in this session

    @property
    def merge_ratio(self) -> float:
        return self.unique_positions / self.total_positions if self.total_positions else 1.0

    @property
    def nps(self) -> float:
        """Nodes counted in this session per second (a resumed run's journal adds none)."""
        return self.nodes_run / self.seconds if self.seconds > 0 else 0.0


def dashboard_link(client) -> str | None:
    """The Dask dashboard's address, when the dashboard can run (it needs bokeh)."""
    if importlib.util.find_spec("bokeh") is None:
        return None
    try:
        return client.dashboard_link
    except Exception:      # noqa: BLE001  (a scheduler without a dashboard)
        return None


@dataclass(frozen=True)
class ClusterRun:
    """What a run counts (perft or divide of `fen` + `moves` at `depth`, the first `split` plies
    on the client), where (the scheduler at `address`, else a local cluster of `local` worker
    processes, default one per core), into how many `tasks`, with which table on each worker
    (`hash_exp` < 0: none), keeping finished tasks in `journal`, and how long it waits for a
    worker (`wait_workers` seconds)."""
    fen: str
    moves: str
    depth: int
    split: int
    divide: bool = False
    tasks: int = DEFAULT_TASKS
    hash_exp: int = -1
    address: str | None = None
    local: int | None = None
    journal: str | os.PathLike | None = None
    wait_workers: float = WORKER_WAIT

    def check(self):
        """ClusterError naming the parameter that cannot be run."""
        if self.hash_exp > TABLE_MAX_EXP:
            raise ClusterError(f"{{hash_exp}} {self.hash_exp}: a table of 2^{self.hash_exp} entries is too large "
                               f"(at most 2^{TABLE_MAX_EXP})")
        if self.depth < 0:
            raise ClusterError(f"{{depth}} must be >= 0, got {self.depth}")
        most = min(self.depth, SPLIT_LIMIT)
        if not 0 <= self.split <= most:
            raise ClusterError(f"{{split}} must be between 0 and {most} for depth {self.depth}, got {self.split}")
        if self.divide and self.split < 1:
            raise ClusterError("divide on a cluster needs {split} of at least 1")
        if self.tasks < 1:
            raise ClusterError(f"{{tasks}} must be at least 1, got {self.tasks}")
        if self.local is not None and self.address is not None:
            raise ClusterError("give either {local} N or {address} ADDRESS, not both")
        if self.local is not None and not 1 <= self.local <= WORKERS_LIMIT:
            raise ClusterError(f"{{local}} needs between 1 and {WORKERS_LIMIT} workers, got {self.local}")
        if not self.wait_workers > 0:
            raise ClusterError(f"{{wait_workers}} must be more than 0 seconds, got {self.wait_workers}")

    def key(self) -> dict:
        """What decides the answer and the tasks: a journal is kept for this, and refused for another."""
        return {"format": JOURNAL_FORMAT, "fen": self.fen, "moves": " ".join(self.moves.split()),
                "depth": self.depth, "split": self.split, "divide": self.divide, "tasks": self.tasks}


@dataclass(frozen=True)
class _Prepared:
    """The client's side of a run before any task is sent: the position, its split, the tasks,
    those the journal already holds, the journal, when the run started."""
    pos: Position
    split: Split
    tasks: list[Task]
    done: dict[int, np.ndarray]
    journal: Journal
    started: float


def run_perft(fen: str, moves: str, depth: int, split: int, *, divide: bool = False,
              address: str | None = None, local: int | None = None, client=None,
              journal: str | os.PathLike | None = None, tasks: int = DEFAULT_TASKS,
              hash_exp: int = -1, progress: Callable[[Progress], None] | None = None,
              on_start: Callable[[ClusterResult], None] | None = None, wait_workers: float = WORKER_WAIT,
              notify: Callable[[str], None] | None = None) -> ClusterResult:
    """perft (or divide) of fen + moves on a Dask cluster (the parameters are ClusterRun's):
    `client` if given, else the scheduler at `address`, else a LocalCluster of `local` worker
    processes (default: one per core). `progress` is called after every finished task;
    `on_start` once the work is split and the cluster is up (its result has nodes=0). With no
    worker for `wait_workers` seconds, or workers dying at start-up again and again, the run
    gives up with ClusterError; `notify` hears what it is waiting for meanwhile."""
    run = ClusterRun(fen, moves, depth, split, divide, tasks, hash_exp, address, local, journal, wait_workers)
    run.check()
    pos = Position.from_fen(fen).play(moves)
    started = time.perf_counter()
    early = watch = None
    if client is None and address is not None:
        # ask an external scheduler first, so that having no worker is said at once,
        # not after a split that may take a while
        early, _ = _open_client(address, None)
        client = early
        watch = WorkerWatch(client, wait_workers, notify)
        watch.workers(force=True)
    try:
        try:
            sp = split_positions(pos, split, divide)
        except SplitError as e:
            raise ClusterError(f"{e}; use a smaller {{split}}") from None
        all_tasks = make_tasks(sp, depth, tasks)
        jr = Journal(journal, run.key())
        try:
            prepared = _Prepared(pos, sp, all_tasks, jr.finished(all_tasks), jr, started)
            return _run_on_cluster(run, prepared, client, watch, progress, on_start, notify)
        finally:
            jr.close()
    finally:
        if early is not None:
            early.close()


def _open_client(address, local):
    from distributed import Client, LocalCluster

    if address is not None:
        _refused(address)
        # a lost scheduler is reported once, in the run's own error: not as a traceback per retry
        logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
        try:
            c = Client(address, timeout=10)
        except (OSError, TimeoutError, ValueError) as e:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        return c, None
    n = local or (os.cpu_count() or 1)
    # a failed task is reported once, in the run's own error: not as a log line per try
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                           silence_logs=logging.CRITICAL)
    return Client(cluster), cluster


def _refused(address: str):
    # a refused connection is known at once; Client would retry it until its timeout
    host, _, port = address.split("://")[-1].rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"scheduler address {address!r} is not HOST:PORT (e.g. tcp://host:8786)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {e.strerror or e}") from None


def _run_on_cluster(run: ClusterRun, prepared: _Prepared, client, watch, progress, on_start,
                    notify) -> ClusterResult:
    from distributed import as_completed

    pos, sp, all_tasks, done, jr = prepared.pos, prepared.split, prepared.tasks, prepared.done, prepared.journal
    own = None
    cluster = None
    if client is None:
        own, cluster = _open_client(run.address, run.local)
        client = own
    futures = {}
    try:
        if watch is None:                  # a local cluster or a given client: known only now
            watch = WorkerWatch(client, run.wait_workers, notify)
        watch.wait_for_one()
        workers = len(client.scheduler_info().get("workers", {}))
        counts = dict(done)
        nodes_done = sum(_nodes(t, counts[t.id]) for t in all_tasks if t.id in counts)
        base = dict(root_fen=run.fen, moves=" ".join(run.moves.split()), fen=pos.fen(), depth=run.depth, split=sp.plies,
                    tasks=len(all_tasks), tasks_from_journal=len(done), unique_positions=sp.unique,
                    total_positions=sp.total, workers=workers, dashboard=dashboard_link(client),
                    scheduler=client.scheduler.address, session=jr.session)
        if on_start is not None:
            on_start(ClusterResult(nodes=0, divide=None, tasks_run=0, seconds=0.0, **base))
        todo = sorted((t for t in all_tasks if t.id not in done), key=lambda t: -t.cost)
        rem = run.depth - sp.plies
        tag = uuid.uuid4().hex[:8]
        run_start = time.perf_counter()
        for t in todo:
            f = client.submit(count_task, t.rows, rem, run.hash_exp, key=f"perftscope-{tag}-{t.id}",
                              retries=RETRIES, priority=t.cost, pure=False)
            futures[f] = t
        failed: dict[int, str] = {}
        nodes_run = 0
        task_seconds = 0.0
        ran = 0
        ac = as_completed(futures)
        while not _scheduler_lost(client, counts, all_tasks, jr) and not ac.is_empty():
            ready = ac.next_batch(block=False)
            if not ready:
                _scheduler_lost(client, counts, all_tasks, jr)     # before a call that would wait for it
                try:
                    watch.workers(tasks_finished=ran)
                except (OSError, TimeoutError):            # the scheduler did not answer
                    _scheduler_lost(client, counts, all_tasks, jr, settle=LOST_SETTLE)
                    raise
                except ClusterError as e:
                    raise ClusterError(f"{e.template}; {len(counts)} of {len(all_tasks)} tasks done, no total; "
                                       f"{_keep_hint(jr)}") from None
                time.sleep(0.05)
                continue
            for f in ready:
                t = futures.pop(f)
                if f.status != "finished":
                    failed[t.id] = _why(f)
                    continue
                try:
                    c, secs, who = f.result()
                except (OSError, TimeoutError, CancelledError):    # the scheduler went away with it
                    futures[f] = t
                    _scheduler_lost(client, counts, all_tasks, jr, settle=LOST_SETTLE)
                    raise
                n = _nodes(t, c)
                jr.record(t, c, n, secs, who)
                counts[t.id] = c
                nodes_done += n
                nodes_run += n
                task_seconds += secs
                ran += 1
                if progress is not None:
                    progress(Progress(len(counts), len(all_tasks), nodes_done,
                                      time.perf_counter() - run_start, nodes_run))
        missing = [t.id for t in all_tasks if t.id not in counts]
        if missing:
            # the same cause usually fails every task: name each cause once
            causes = dict.fromkeys(failed[i] for i in missing if i in failed)
            reasons = "; ".join(list(causes)[:2])
            raise ClusterError(f"{len(all_tasks) - len(missing)} of {len(all_tasks)} tasks done, "
                               f"{len(missing)} missing ({reasons or 'cancelled'}); no total; {_keep_hint(jr)}")
        total, rows = _sum(pos, sp, all_tasks, counts, run.divide)
        seconds = time.perf_counter() - prepared.started
        return ClusterResult(nodes=total, divide=rows, tasks_run=ran, seconds=seconds,
                             task_seconds=task_seconds, compute_seconds=time.perf_counter() - run_start,
                             nodes_run=nodes_run, **base)
    finally:
        if futures and own is None and client.status == "running":
            # a scheduler that outlives this client must not go on with a dead run's tasks
            try:
                client.cancel(list(futures))
            except Exception:      # noqa: BLE001  (the scheduler may be gone already)
                pass
        if own is not None:
            own.close()
        if cluster is not None:
            cluster.close()


def _scheduler_lost(client, counts: dict, all_tasks: list, jr: Journal, settle: float = 0.0) -> bool:
    """False while the client holds its scheduler; ClusterError (what was done, how to go on from
    the journal) once it has lost it: Dask says so at once ('connecting'), and the tasks the
    scheduler held are gone even if it comes back. `settle`: seconds to let the client notice,
    after a call to the scheduler failed."""
    deadline = time.monotonic() + settle
    while client.status == "running":
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    raise ClusterError(f"lost the Dask scheduler at {client.scheduler.address} (it stopped, or the "
                       f"network to it failed); {len(counts)} of {len(all_tasks)} tasks done, no total; "
                       f"{_keep_hint(jr)}")


def _keep_hint(jr: Journal) -> str:
    return (f"run again with {{journal}} {jr.path} to compute only those" if jr.path != ":memory:"
            else "run with {journal} FILE to keep finished tasks across runs")


def _nodes(task: Task, counts: np.ndarray) -> int:
    return int((counts.astype(np.uint64) * task.mult).sum(dtype=np.uint64))


def _why(future) -> str:
    try:
        e = future.exception(timeout=1)
    except Exception as err:  # noqa: BLE001  (a cancelled future has no exception to give)
        return type(err).__name__
    if isinstance(e, ClusterError):
        return f"{type(e).__name__}: {e.template}"       # its parameters still to be spelled
    return f"{type(e).__name__}: {e}" if e is not None else future.status


def _sum(pos, sp, all_tasks, counts, divide):
    # the tasks' counts back in the split's row order
    by_row = np.zeros(sp.unique, np.uint64)
    for t in all_tasks:
        by_row[t.rows_index] = counts[t.id]
    if not divide:
        return sp.total_nodes(by_row), None
    per_root = sp.per_root(by_row)
    rows = {uci: int(c) for uci, c in zip(pos.legal_moves(), per_root)}
    return int(per_root.sum(dtype=np.uint64)), rows
