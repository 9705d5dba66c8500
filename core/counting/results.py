"""What a perft run reports (its Result, its live Snapshot, the table's HashStats), shared by
the pool (core.counting.pool) and the small requests' path (core.counting.shallow). No numba:
a command can name these types without loading a kernel."""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass

# the position every prepare's tiny run counts (the pool's, the small requests'): castling both
# ways, a promotion by a push and by a capture, so every kernel a run calls and each of
# move_to_uci's decoders is loaded before any run's clock starts
PREPARE_FEN = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"


@dataclass(frozen=True)
class WorkerCounters:
    nodes: int
    probes: int
    hits: int
    stores: int
    replacements: int
    items: int


@dataclass(frozen=True)
class HashStats:
    entries: int
    probes: int
    hits: int
    stores: int
    replacements: int
    fill: float                # fraction of entries in use
    by_depth: tuple[tuple[int, int, int], ...] = ()    # (remaining depth, probes, hits)

    @property
    def hit_rate(self) -> float:
        return self.hits / self.probes if self.probes else 0.0

    def as_dict(self) -> dict:
        return {"entries": self.entries, "probes": self.probes, "hits": self.hits,
                "stores": self.stores, "replacements": self.replacements,
                "fill": round(self.fill, 6),
                "by_depth": [{"depth": d, "probes": p, "hits": h} for d, p, h in self.by_depth]}


@dataclass(frozen=True)
class Snapshot:
    """Live counters. nodes counts leaves accounted for so far (a table hit adds its
    whole subtree), so nodes / elapsed is the run's NPS; hash.fill is an estimate
    until the run is done."""
    elapsed: float
    nodes: int
    workers: tuple[WorkerCounters, ...]
    hash: HashStats | None
    items_done: int
    items_total: int
    done: bool
    cancelled: bool


# which kernels counted a Result: the pool's (perft 2's C kernels below a split) or the move list's
# (core.counting.shallow)
POOL = "pool"
MOVE_LIST = "move list"


@dataclass(frozen=True)
class Result:
    fen: str
    depth: int
    workers: int
    seconds: float
    cancelled: bool = False
    nodes: int | None = None                 # None when cancelled
    divide: dict[str, int] | None = None     # {uci: count}, when asked for
    stats: dict[str, int] | None = None      # the chessprogramming columns, when asked for
    hash: HashStats | None = None
    items: int = 0
    worker_cpu: tuple[float, ...] = ()      # each worker thread's CPU seconds
    path: str = POOL                         # POOL or MOVE_LIST

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.nodes and self.seconds > 0 else 0.0


def default_workers() -> int:
    return os.cpu_count() or 1


class CountingThread:
    """A count on a thread of its own, driven from any other (the pool's PerftRun, the small
    requests' ShallowRun): cancel(), done(), result(timeout). A subclass sets `_stop` (the flag
    its kernels read), gives `_run() -> Result`, sets `_started` when its clock starts, and calls
    `_begin(name)` last in its __init__."""

    _stop = None

    def _begin(self, name: str):
        self._started: float | None = None     # when the count starts (kernels prepared)
        self._finished: float | None = None
        self._done = threading.Event()
        self._result: Result | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._main, name=name, daemon=True)
        self._thread.start()

    def cancel(self):
        """Ask the count to stop; its kernels see it within one interior node. A run that has
        already finished keeps its result."""
        if not self._done.is_set():
            self._stop[0] = 1

    def done(self) -> bool:
        return self._done.is_set()

    def result(self, timeout: float | None = None) -> Result:
        """The Result (cancelled=True, no counts, if it was cancelled); raises the run's error,
        or TimeoutError if it is still going after `timeout` seconds."""
        if not self._done.wait(timeout):
            raise TimeoutError(f"perft still running after {timeout} s")
        if self._error is not None:
            raise self._error
        return self._result

    def _elapsed(self) -> float:
        """Seconds counted so far (0 before the clock starts)."""
        end = self._finished if self._finished is not None else time.perf_counter()
        started = self._started if self._started is not None else end
        return max(0.0, end - started)

    def _main(self):
        try:
            self._result = self._run()
        except BaseException as e:      # surfaced by result(); a thread has nobody else to tell
            self._error = e
        finally:
            self._finished = time.perf_counter()
            self._ended()
            self._done.set()

    def _run(self) -> Result:
        raise NotImplementedError

    def _ended(self):
        """After the run, before done() says so."""
