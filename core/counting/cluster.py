"""Deep perft on a Dask cluster, as a core.job.Job: split, merge transpositions, count on
workers, journal.

    job = ClusterJob(ClusterRun(START_FEN, "", depth=8, split=4, local=2, journal="d8.sqlite"))
    result = job.run(print)     # a ClusterResult (nodes=0) once the cluster is up, a Progress per
    result.nodes, result.tasks, result.merge_ratio      # task, a Notice while it waits for workers

What a run counts and where is a ClusterRun (core.counting.cluster_settings), checked once. The
tree is expanded `split` plies by core.counting.split, which keeps each distinct position
(compared field by field, never by key alone) once with its multiplicity. The unique positions are
packed into tasks of about equal estimated cost (core.counting.cluster_tasks); each task runs on a
Dask worker with the jitted core and returns one count per position. The answer is the sum of
multiplicity x count.

Every finished task is written to the journal (core.counting.cluster_journal) as it arrives, so a
run started again with the same journal only computes the tasks that are missing. A worker lost
mid-task is Dask's business: it reschedules the task elsewhere; a scheduler without workers, or
whose workers keep dying, is watched (core.counting.cluster_watch). A run with tasks still missing
at the end raises ClusterError saying how many; a partial sum is never returned.

A local cluster (`local` workers) listens on the loopback only: its scheduler, its workers and,
when asked for (`dashboard`), its dashboard, whose address the start event says.

Workers need only this package: on another machine,
    pip install perftscope && dask worker tcp://SCHEDULER:8786
"""
from __future__ import annotations

import importlib.util
import logging
import os
import socket
import threading
import time
import uuid
from concurrent.futures import CancelledError
from dataclasses import dataclass

import numpy as np

from ..board.position import Position
from ..job import Emit, Progress, Subject, ignore
from .cluster_journal import Journal
from .cluster_settings import DEFAULT_TASKS, WORKER_WAIT, ClusterError, ClusterRun
from .cluster_tasks import Task, count_task, make_tasks
from .cluster_watch import WorkerWatch
from .split import Split, SplitError, split_positions

__all__ = ["DEFAULT_TASKS", "WORKER_WAIT", "ClusterError", "ClusterJob", "ClusterResult", "ClusterRun", "Notice",
           "count_task", "make_tasks", "run_perft", "split_positions"]

RETRIES = 2                # a task that raised is tried again this often
LOST_SETTLE = 1.0          # seconds for the client to notice a lost scheduler after a failed call
RESULT_SLICE = 0.5         # seconds between looks at a stop while a finished task's counts are fetched
LOOPBACK = "127.0.0.1"     # where a local cluster listens: nothing of it is reachable from outside


@dataclass(frozen=True)
class Notice:
    """What a run is waiting for (a scheduler with no worker yet), as one line."""
    text: str


# --- a run -----------------------------------------------------------------------------

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
class _Prepared:
    """The client's side of a run before any task is sent: the position, its split, the tasks,
    those the journal already holds, the journal, when the run started."""
    pos: Position
    split: Split
    tasks: list[Task]
    done: dict[int, np.ndarray]
    journal: Journal
    started: float


class ClusterJob:
    """A cluster run as a core.job.Job. `client`: a Dask client to run on (else the run's own,
    from its ClusterRun). stop() ends the run before its next result: the tasks left are
    cancelled and it raises ClusterError saying how many were done (kept by the journal)."""

    def __init__(self, run: ClusterRun, client=None):
        run.check()
        self.settings, self.client = run, client
        self.subject = Subject(run.fen, tuple(run.moves.split()), ("core",), what="cluster")
        self._stopped = threading.Event()
        self._last: Progress | None = None

    def run(self, emit: Emit = ignore) -> ClusterResult:
        def kept(event):
            if isinstance(event, Progress):
                self._last = event
            emit(event)
        return run_perft(self.settings, self.client, kept, self._stopped)

    def stop(self):
        self._stopped.set()

    def activity(self) -> str | None:
        last = self._last
        return None if last is None else f"{last.done} of {last.total} tasks done"


def run_perft(run: ClusterRun, client=None, emit: Emit = ignore,
              stopped: threading.Event | None = None) -> ClusterResult:
    """perft (or divide) of `run` on a Dask cluster: `client` if given, else the scheduler at
    run.address, else a LocalCluster of run.local worker processes (default: one per core),
    listening on the loopback only. Emits a ClusterResult (nodes=0) once the work is split and
    the cluster is up, a core.job.Progress after every finished task, a Notice while it waits
    for a worker. With no worker for run.wait_workers seconds, or workers dying at start-up again
    and again, or `stopped` set, the run gives up with ClusterError."""
    run.check()
    pos = Position.from_fen(run.fen).play(run.moves)
    started = time.perf_counter()
    early = watch = None
    if client is None and run.address is not None:
        # ask an external scheduler first, so that having no worker is said at once,
        # not after a split that may take a while
        early, _ = _open_client(run)
        client = early
        watch = WorkerWatch(client, run.wait_workers, lambda text: emit(Notice(text)))
        watch.workers(force=True)
    try:
        try:
            sp = split_positions(pos, run.split, run.divide)
        except SplitError as e:
            raise ClusterError(f"{e}; use a smaller {{split}}") from None
        all_tasks = make_tasks(sp, run.depth, run.tasks)
        jr = Journal(run.journal, run.key())
        try:
            prepared = _Prepared(pos, sp, all_tasks, jr.finished(all_tasks), jr, started)
            return _run_on_cluster(run, prepared, client, watch, emit, stopped or threading.Event())
        finally:
            jr.close()
    finally:
        if early is not None:
            early.close()


def _open_client(run: ClusterRun):
    """(client, the local cluster it runs on, or None for the scheduler at run.address)."""
    from distributed import Client, LocalCluster

    address = run.address
    if address is not None:
        _refused(address)
        # a lost scheduler is reported once, in the run's own error: not as a traceback per retry
        logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
        try:
            c = Client(address, timeout=10)
        except (OSError, TimeoutError, ValueError) as e:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        return c, None
    n = run.local or (os.cpu_count() or 1)
    # The scheduler, its workers and its HTTP server (the dashboard when asked for, else only the
    # scheduler's health routes) on the loopback, the HTTP server on a free port: Dask's default
    # would serve it on every interface (0.0.0.0). A failed task is reported once, in the run's own
    # error: not as a log line per try.
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host=LOOPBACK,
                           dashboard_address=f"{LOOPBACK}:0", scheduler_kwargs={"dashboard": run.dashboard},
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


def _run_on_cluster(run: ClusterRun, prepared: _Prepared, client, watch: WorkerWatch | None, emit: Emit,
                    stopped: threading.Event) -> ClusterResult:
    from distributed import as_completed

    pos, sp, all_tasks, done, jr = prepared.pos, prepared.split, prepared.tasks, prepared.done, prepared.journal
    own = None
    cluster = None
    if client is None:
        own, cluster = _open_client(run)
        client = own
    futures = {}
    try:
        if watch is None:                  # a local cluster or a given client: known only now
            watch = WorkerWatch(client, run.wait_workers, lambda text: emit(Notice(text)))
        watch.wait_for_one()
        workers = len(client.scheduler_info().get("workers", {}))
        counts = dict(done)
        nodes_done = sum(_nodes(t, counts[t.id]) for t in all_tasks if t.id in counts)
        base = dict(root_fen=run.fen, moves=" ".join(run.moves.split()), fen=pos.fen(), depth=run.depth, split=sp.plies,
                    tasks=len(all_tasks), tasks_from_journal=len(done), unique_positions=sp.unique,
                    total_positions=sp.total, workers=workers,
                    dashboard=dashboard_link(client) if run.dashboard else None,
                    scheduler=client.scheduler.address, session=jr.session)
        emit(ClusterResult(nodes=0, divide=None, tasks_run=0, seconds=0.0, **base))
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
        while not _scheduler_lost(client, counts, all_tasks, jr) and not ac.is_empty() and not stopped.is_set():
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
                    got = _result(f, stopped)
                except (OSError, TimeoutError, CancelledError):    # the scheduler went away with it
                    futures[f] = t
                    _scheduler_lost(client, counts, all_tasks, jr, settle=LOST_SETTLE)
                    raise
                if got is None:             # stopped while its counts were on their way
                    futures[f] = t
                    break
                c, secs, who = got
                n = _nodes(t, c)
                jr.record(t, c, n, secs, who)
                counts[t.id] = c
                nodes_done += n
                nodes_run += n
                task_seconds += secs
                ran += 1
                elapsed = time.perf_counter() - run_start
                emit(Progress(len(counts), len(all_tasks),
                              f"tasks {len(counts)}/{len(all_tasks)}  nodes {nodes_done:,}  "
                              f"nps {nodes_run / elapsed / 1e6 if elapsed > 0 else 0.0:,.1f}M  {elapsed:.1f}s"))
        missing = [t.id for t in all_tasks if t.id not in counts]
        if missing:
            # the same cause usually fails every task: name each cause once
            causes = dict.fromkeys(failed[i] for i in missing if i in failed)
            reasons = "; ".join(list(causes)[:2])
            why = "stopped" if stopped.is_set() else reasons or "cancelled"
            raise ClusterError(f"{len(all_tasks) - len(missing)} of {len(all_tasks)} tasks done, "
                               f"{len(missing)} missing ({why}); no total; {_keep_hint(jr)}")
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


def _result(future, stopped: threading.Event):
    """A finished task's (counts, seconds, worker), fetched from its worker; None when the run is
    stopped meanwhile (a worker that does not answer must not hold a stopped run)."""
    while True:
        try:
            return future.result(timeout=RESULT_SLICE)
        except TimeoutError:        # Dask's own is this one
            if stopped.is_set():
                return None
            if future.client.status != "running":
                raise               # the scheduler is gone: the caller says so


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
