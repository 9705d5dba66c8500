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


class Ticket:
    """A submitted call (core.job.Job is long work itself; this is the call's ticket). `cancelled`
    only stops its results from being delivered: a running kernel is not interrupted (work that can
    stop early is a core.job.Job, stopped through app.job_control.JobController)."""

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

    def submit(self, fn, on_done, on_error=None, *args, job: Ticket | None = None) -> Ticket:
        """Run fn(*args) on a worker thread; on_done(value) or on_error(message) later
        runs on the GUI thread. User errors arrive as their one-line message; anything
        else as its type and message (the traceback goes to stderr)."""
        job = job or Ticket()
        self._pool.submit(self._work, job, fn, on_done, on_error, args)
        return job

    def start_thread(self, fn, on_done, on_error=None, *args, job: Ticket | None = None) -> Ticket:
        """As submit, on a thread of its own: for long work (a core.job.Job runs until it is done or
        stopped) that must not hold one of the pool's threads away from the divides."""
        job = job or Ticket()
        threading.Thread(target=self._work, args=(job, fn, on_done, on_error, args),
                         name="perftscope-job", daemon=True).start()
        return job

    def _work(self, job: Ticket, fn, on_done, on_error, args):
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

    def post(self, job: Ticket, callback, value):
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
    that tree's engines). Their oracles are made by the core.engines.pair.EnginePair on first use
    (starting an engine can fail: that arrives as an error message like any other) and kept until
    other engines are chosen. With no engine only the reference is asked. A tree's root is given as a
    core.engines.oracle.Request (`set_root`: the board's, read where it entered); each row's position
    is that Request with the row's moves played on its Position, never a FEN read again."""

    def __init__(self, bridge: Bridge, timeout: float = 60.0):
        self.bridge = bridge
        self.pair = None               # core.engines.pair.EnginePair of the tree shown
        self.refused = None            # ... or the EngineError of a half-typed spec, which every divide fails with
        self.timeout = timeout
        self._oracles: dict[str, object] = {}
        self.root = None               # core.engines.oracle.Request of the tree shown (the engine's FEN as written)
        self._jobs: weakref.WeakSet = weakref.WeakSet()
        self._lock = threading.Lock()

    def set_pair(self, pair):
        """Divide with `pair` (a core.engines.pair.EnginePair) from now on."""
        self.pair, self.refused = pair, None
        self.set_timeout(pair.timeout)
        self._drop_unused()

    def refuse(self, error):
        """The engines chosen cannot be read (an EngineError): every divide fails with it, as an
        engine that cannot start does; the oracles already made are kept."""
        self.pair, self.refused = None, error

    def set_timeout(self, timeout: float):
        if timeout != self.timeout:
            self.timeout = timeout
            with self._lock:
                for oracle in self._oracles.values():
                    oracle.timeout = timeout          # read at the start of each call

    def set_root(self, request):
        """Divide the tree rooted at `request` (a core.engines.oracle.Request, no moves played) from
        now on: each row's position is its Position with the row's moves played."""
        self.root = request

    def request(self, moves=()):
        """The Request of the tree's row reached by `moves` from its root."""
        return self.root.then(*moves)

    def _oracle(self, spec, make):
        """The oracle of `spec` (a core.engines.spec.Spec), made by `make()` on first use."""
        with self._lock:
            oracle = self._oracles.get(spec.text)
        if oracle is None:
            made = make()
            made.timeout = self.timeout
            with self._lock:
                oracle = self._oracles.setdefault(spec.text, made)
            if oracle is not made:
                made.close()                  # another thread made it first
        return oracle

    def oracles(self, pair, refused=None) -> tuple:
        """(engine's oracle or None, reference's) of `pair`, as set_pair was given it (worker thread)."""
        if refused is not None:
            raise refused
        engine = self._oracle(pair.engine, pair.make_engine) if pair.engine is not None else None
        return engine, self._oracle(pair.reference, pair.make_reference)

    def divides(self, pair, refused, root, moves, depth: int) -> list:
        """The rows (core.mismatch.finder.Row) of the position after `moves` from the Request `root`
        (worker thread): the engine's count beside the reference's; with no engine its counts are None."""
        from perftscope.core.mismatch.finder import diff_rows
        engine, reference = self.oracles(pair, refused)
        request = root.then(*moves)
        # a move a totals-only engine refuses to play is a row of its own: not generated (refused)
        engine_rows, not_played = engine.divide_refused(request, depth, as_written=True) \
            if engine is not None else ({}, [])
        return diff_rows(engine_rows, reference.divide(request, depth), not_played)

    def fetch(self, fen, moves, depth, on_done, on_error) -> Ticket:
        """A row of the tree rooted at `fen` divided, its rows later: the service's root (the window
        sets it), or for a tree used alone `fen` read here, where it enters."""
        if self.root is None or self.root.root != fen:
            from perftscope.core.engines.oracle import Request
            self.root = Request.of(fen)
        job = self.bridge.submit(self.divides, on_done, on_error, self.pair, self.refused, self.root, tuple(moves),
                                 depth)
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

    def names(self, pair) -> tuple[str | None, str | None]:
        """What `pair`'s oracles call their engines once made (an engine file's `name`, not its
        file's stem); None for one not made yet."""
        with self._lock:
            made = [self._oracles.get(s.text) if s is not None else None for s in (pair.engine, pair.reference)]
        return tuple(o.name if o is not None else None for o in made)

    def waiting(self) -> str:
        """What every engine call running now is waiting for, with its timeout ("" when none)."""
        from perftscope.core.engines.oracle import waiting_for
        with self._lock:
            oracles = list(self._oracles.values())
        return waiting_for(oracles)

    def logs(self) -> dict[str, str]:
        """Each engine's log (what was sent, what came back), by spec."""
        with self._lock:
            return {spec: o.log.text() for spec, o in self._oracles.items()}

    def _drop_unused(self):
        pair = self.pair
        if pair is None:
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
