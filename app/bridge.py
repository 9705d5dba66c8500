"""Core work off the GUI thread, results back on it.

Worker threads never touch Qt: they put (callback, value) pairs in an inbox. One QTimer
on the GUI thread drains the inbox and calls each `tick` hook (live counters, graph
refresh), so the views are refreshed from a single place and the GUI thread never waits.
"""
from __future__ import annotations

import os
import queue
import threading
import traceback
import weakref
from concurrent.futures import ThreadPoolExecutor

from PySide6.QtCore import QObject, QTimer

from perftscope.core.errors import PerftscopeError

TICK_MS = 100          # one refresh for every view: fast enough to read, cheap to draw
WORKER_PREFIX = "perft-worker"     # core.counting.pool names its counting threads so the timer can lower their priority
WORKER_NICE = 10


def yield_to_gui(seen: weakref.WeakSet):
    """Lower the scheduling priority of core.counting.pool's counting threads (Linux threads have
    their own nice value). They still take every idle cycle, but when cores are short the
    GUI thread runs first: a repaint is not stretched to hundreds of ms on a busy machine."""
    if not hasattr(os, "setpriority"):
        return
    for t in threading.enumerate():
        if t.name.startswith(WORKER_PREFIX) and t.native_id and t not in seen:
            seen.add(t)
            try:
                os.setpriority(os.PRIO_PROCESS, t.native_id, WORKER_NICE)
            except OSError:
                pass            # the thread has just ended


class Job:
    """A submitted call. `cancelled` only stops its result from being delivered: a running
    kernel is not interrupted (runs that can stop early go through core.counting.pool)."""

    def __init__(self):
        self.cancelled = False
        self.done = threading.Event()

    def cancel(self):
        self.cancelled = True


class Bridge(QObject):
    def __init__(self, threads: int = 3, parent=None):
        super().__init__(parent)
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="perftscope")
        self._hooks: list = []
        self._reniced = weakref.WeakSet()       # threads already lowered
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def submit(self, fn, on_done, on_error=None, *args, job: Job | None = None) -> Job:
        """Run fn(*args) on a worker thread; on_done(value) or on_error(message) later
        runs on the GUI thread. User errors arrive as their one-line message; anything
        else as its type and message (the traceback goes to stderr)."""
        job = job or Job()

        def work():
            if job.cancelled:
                job.done.set()
                return
            try:
                value = fn(*args)
                self._inbox.put((job, on_done, value))
            except PerftscopeError as e:
                self._inbox.put((job, on_error, str(e)))
            except Exception as e:  # noqa: BLE001 - a worker must report, never die silently
                traceback.print_exc()
                self._inbox.put((job, on_error, f"{type(e).__name__}: {e}"))
            finally:
                job.done.set()

        self._pool.submit(work)
        return job

    def post(self, job: Job, callback, value):
        """From a worker thread: have callback(value) run on the GUI thread (progress)."""
        self._inbox.put((job, callback, value))

    def add_hook(self, fn):
        """fn() runs on every tick (read live counters, refresh graphs)."""
        self._hooks.append(fn)

    def remove_hook(self, fn):
        if fn in self._hooks:
            self._hooks.remove(fn)

    def tick(self):
        yield_to_gui(self._reniced)
        while True:
            try:
                job, callback, value = self._inbox.get_nowait()
            except queue.Empty:
                break
            if not job.cancelled and callback is not None:
                callback(value)
        for hook in list(self._hooks):
            hook()

    def shutdown(self):
        self.timer.stop()
        self._pool.shutdown(wait=False, cancel_futures=True)


class DivideService:
    """The engine's divide and the reference's, computed on the bridge's threads, for the
    engines of the tree being shown (`set_pair` at each new tree: rows expanded later are still
    that tree's engines). Oracles are made on first use (starting an engine can fail: that arrives
    as an error message like any other) and kept until other engines are chosen. With no engine
    only the reference is asked."""

    def __init__(self, bridge: Bridge, timeout: float = 60.0):
        self.bridge = bridge
        self.pair = None               # core.engines.pair.EnginePair, or the EngineError of a half-typed spec
        self.timeout = timeout
        self._oracles: dict[str, object] = {}
        self._written: dict[str, str] = {}   # FEN -> as written, for the FENs loaded with something dropped
        self._jobs: weakref.WeakSet = weakref.WeakSet()
        self._lock = threading.Lock()

    def set_pair(self, pair):
        """Divide with `pair` from now on (an EngineError: every divide fails with it)."""
        self.pair = pair
        if not isinstance(pair, Exception):
            self.set_timeout(pair.timeout)
        self._drop_unused()

    def set_timeout(self, timeout: float):
        if timeout != self.timeout:
            self.timeout = timeout
            with self._lock:
                for oracle in self._oracles.values():
                    oracle.timeout = timeout          # read at the start of each call

    def remember_written(self, fen: str, written: str):
        """`fen` was loaded as `written` (a right or en-passant square that cannot stand, dropped
        for the reference): the engine under test is asked about it as written, as compare does."""
        self._written[fen] = written

    def as_written(self, fen: str) -> str:
        """The FEN the engine under test is given for a tree rooted at `fen`."""
        return self._written.get(fen, fen)

    def oracle(self, spec):
        """The oracle of `spec` (a core.engines.spec.Spec), started on first use."""
        from perftscope.core.engines.oracles import make_oracle
        with self._lock:
            if spec.text not in self._oracles:
                self._oracles[spec.text] = make_oracle(spec, timeout=self.timeout)
            return self._oracles[spec.text]

    def oracles(self, pair) -> tuple:
        """(engine's oracle or None, reference's) of `pair`, as set_pair was given it (worker thread)."""
        if isinstance(pair, Exception):
            raise pair
        return (self.oracle(pair.engine) if pair.engine is not None else None), self.oracle(pair.reference)

    def divides(self, pair, fen: str, moves, depth: int) -> list:
        """The rows (core.mismatch.finder.Row) of the position after `moves` (worker thread): the
        engine's count beside the reference's; with no engine its counts are None."""
        from perftscope.core.engines.oracle import Request
        from perftscope.core.mismatch.finder import diff_rows
        engine, reference = self.oracles(pair)
        # checked once: the engine is sent its FEN as written, the reference the one that stands
        request = Request.of(self.as_written(fen), moves)
        engine_rows = engine.divide(request, (), depth, as_written=True) if engine is not None else {}
        return diff_rows(engine_rows, reference.divide(request, (), depth))

    def fetch(self, fen, moves, depth, on_done, on_error) -> Job:
        job = self.bridge.submit(self.divides, on_done, on_error, self.pair, fen, tuple(moves), depth)
        self._jobs.add(job)
        return job

    def track(self, job: Job) -> Job:
        """Let cancel() stop another job that uses these oracles (the finder)."""
        self._jobs.add(job)
        return job

    def cancel(self):
        """Stop every divide asked for so far: queued ones never start, running ones end
        with OracleCancelled (not delivered: their jobs are cancelled)."""
        for job in list(self._jobs):
            job.cancel()
        with self._lock:
            oracles = list(self._oracles.values())
        for oracle in oracles:
            oracle.cancel()

    def waiting(self) -> list[str]:
        """What every engine call running now is waiting for (core.engines.process.Activity.words)."""
        with self._lock:
            oracles = list(self._oracles.values())
        return [act.words(o.name) for o in oracles if (act := o.activity()) is not None]

    def logs(self) -> dict[str, str]:
        """Each engine's log (what was sent, what came back), by spec."""
        with self._lock:
            return {spec: o.log.text() for spec, o in self._oracles.items()}

    def _drop_unused(self):
        pair = self.pair
        if pair is None or isinstance(pair, Exception):
            return                             # nothing usable chosen: keep what runs
        used = {s.text for s in (pair.engine, pair.reference) if s is not None}
        with self._lock:
            for spec in [s for s in self._oracles if s not in used]:
                self._oracles.pop(spec).close()

    def close(self):
        with self._lock:
            for oracle in self._oracles.values():
                oracle.close()
            self._oracles.clear()
