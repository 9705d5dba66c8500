"""Perft on every core: worker threads over nogil kernels, a shared hash table,
live counters, cancellation.

    run = start_perft(Position.from_fen(START_FEN), 7, workers=2, hash_exp=20)
    run.snapshot().nodes          # any time, from any thread: the run goes on
    run.cancel()                  # every worker stops within milliseconds
    run.result()                  # Result(nodes=..., cancelled=False, ...)

The tree is split a few plies below the root into work items (enough of them
that one dominant root move still spreads over every worker); workers take items
from a shared counter as they finish the last, so nobody idles while another
still has a long queue. A run's setup (kernels loaded or compiled by `prepare`, the
table, the worker threads) happens on the run's own thread before its clock starts,
so its `seconds` hold the split and the count alone; the run's thread is the first
worker. `start_perft` returns at once, which is what a GUI thread needs. A cancelled
run's Result has cancelled=True and no counts: a partial sum is never presented as
an answer."""
from __future__ import annotations

import os
import threading
import time

import numpy as np

from .. import kernels
from ..errors import PerftscopeError
from ..kernel_cache import POOL_STEP, mark_prepared
from ..limits import TABLE_DEPTH_LIMIT, TABLE_MAX_EXP, WORKERS_LIMIT, table_bytes
from ..kernels import hashtable as _h
from ..kernels import perft as _k
from ..kernels import search as _s
from ..board.position import Position
from .results import PREPARE_FEN, CountingThread, HashStats, Result, Snapshot, WorkerCounters, default_workers  # noqa: F401
from .split import split_positions

ITEMS_PER_WORKER = 512         # enough that the last items to finish are short
MAX_ITEMS = 400_000            # 88 bytes each
STAT_NAMES = _k.STAT_NAMES


class PoolError(PerftscopeError, ValueError):
    """A run that cannot start: bad depth, worker count or table size."""


def _check(depth, workers, hash_exp):
    if not isinstance(depth, (int, np.integer)) or depth < 0:
        raise PoolError(f"depth must be a whole number >= 0, got {depth!r}")
    if depth > TABLE_DEPTH_LIMIT:
        raise PoolError(f"depth {depth} is beyond what a table entry can record ({TABLE_DEPTH_LIMIT})")
    if not isinstance(workers, (int, np.integer)) or not 1 <= workers <= WORKERS_LIMIT:
        raise PoolError(f"workers must be between 1 and {WORKERS_LIMIT}, got {workers!r}")
    if hash_exp > TABLE_MAX_EXP:
        raise PoolError(f"hash table of 2^{hash_exp} entries is too large (at most 2^{TABLE_MAX_EXP})")
    if hash_exp >= 0:
        need = table_bytes(hash_exp)
        try:
            have = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            have = None
        if have and need > have // 2:
            raise PoolError(f"hash table of 2^{hash_exp} entries needs {need / 2**30:.1f} GiB, "
                            f"more than half of this machine's {have / 2**30:.1f} GiB")


def _split_plies(T, s, depth, workers, divide, buf) -> int:
    """How far below the root to cut: the first ply giving ITEMS_PER_WORKER items per
    worker, keeping at least two plies for the kernel (its bulk count) below."""
    plies = 1 if divide and depth > 0 else 0
    if depth <= 2:
        return plies
    target = ITEMS_PER_WORKER * workers if workers > 1 else 1
    while plies < depth - 2:
        n = int(_k.perft(T, s, plies, buf))
        if n >= target:
            break
        if int(_k.perft(T, s, plies + 1, buf)) > MAX_ITEMS:
            break
        plies += 1
    return plies


class PerftRun(CountingThread):
    """One perft or divide on the pool. Build it with start_perft."""

    def __init__(self, pos: Position, depth: int, workers: int, hash_exp: int, divide: bool,
                 stats: bool, min_depth: int, prepared: bool = False):
        self.pos = pos
        self.depth = int(depth)
        self.workers = int(workers)
        self.hash_exp = -1 if stats or hash_exp < 0 else max(int(hash_exp), _h.MIN_EXP)
        self.want_divide = divide
        self.want_stats = stats
        self.min_depth = min_depth if self.hash_exp >= 0 else _s.NO_TABLE
        self._ctr = _h.aligned_zeros(_s.SLOT * self.workers).view(np.int64)
        self._stop = np.zeros(1, np.int64)
        self._items_total = 0
        self._table = None
        self._prepared = prepared
        self._begin("perft-run")        # its clock starts once the kernels are prepared, the threads up

    # --- control, from any thread (cancel, done, result: CountingThread) -----
    def snapshot(self) -> Snapshot:
        c = self._ctr.copy().reshape(self.workers, _s.SLOT)
        per = tuple(WorkerCounters(*(int(x) for x in row[[_s.NODES, _s.PROBES, _s.HITS, _s.STORES,
                                                          _s.REPLACEMENTS, _s.ITEMS]]))
                    for row in c)
        done = self._done.is_set()
        if self._result is not None and self._result.hash is not None:
            hstats = self._result.hash
        else:
            hstats = self._hash_stats(c, exact=False)
        return Snapshot(elapsed=self._elapsed(), nodes=int(c[:, _s.NODES].sum()), workers=per,
                        hash=hstats, items_done=int(c[:, _s.ITEMS].sum()),
                        items_total=self._items_total, done=done,
                        cancelled=done and self._result is not None and self._result.cancelled)

    # --- the run ----------------------------------------------------------
    def _hash_stats(self, c, exact: bool) -> HashStats | None:
        if self.hash_exp < 0:
            return None
        entries = 1 << self.hash_exp
        if exact and self._table is not None:
            fill = _h.filled_entries(self._table) / entries
        else:
            fill = min(1.0, int(c[:, _s.FILLS].sum()) / entries)
        probes_at = c[:, _s.PROBES_AT:_s.PROBES_AT + _s.DEPTHS].sum(axis=0)
        hits_at = c[:, _s.HITS_AT:_s.HITS_AT + _s.DEPTHS].sum(axis=0)
        by_depth = tuple((d, int(probes_at[d]), int(hits_at[d])) for d in range(_s.DEPTHS) if probes_at[d])
        return HashStats(entries=entries, probes=int(c[:, _s.PROBES].sum()),
                         hits=int(c[:, _s.HITS].sum()), stores=int(c[:, _s.STORES].sum()),
                         replacements=int(c[:, _s.REPLACEMENTS].sum()), fill=fill, by_depth=by_depth)

    def _ended(self):
        self._table = None          # its figures are in the Result: give the memory back now

    def _run(self) -> Result:
        if not self._prepared:
            prepare(self.want_stats)
        if self._stop[0]:                      # cancelled while the kernels were prepared
            self._started = time.perf_counter()
            return self._finish(None, 0, None, cancelled=True)
        T = kernels.table()
        s = self.pos.state()
        buf = _k.new_move_stack()
        depth = self.depth
        if self.want_divide and depth == 0:
            # the root itself is the one leaf, and no move leads anywhere
            self._started = time.perf_counter()
            return self._finish({}, 1, dict.fromkeys(STAT_NAMES, 0) if self.want_stats else None)
        if self.hash_exp >= 0:
            self._table = _h.new_table(self.hash_exp)
        stats = _h.aligned_zeros(self.workers * _s.SLOT).view(np.int64).reshape(self.workers, _s.SLOT)
        crew = _Crew(self, T, stats)           # threads started before the clock
        try:
            self._started = time.perf_counter()   # the clock holds the count alone
            plies = _split_plies(T, s, depth, self.workers, self.want_divide, buf)
            # with a table, transpositions at the cut are counted once (per root move for
            # divide); the statistics are summed per worker, not per item, so they need every path
            sp = split_positions(self.pos, plies, divide=self.want_divide, merge=self.hash_exp >= 0,
                                 max_rows=MAX_ITEMS)
            self._items_total = sp.unique
            out = crew.count(sp.rows, depth - plies)
        finally:
            crew.dismiss()
        self._worker_cpu = crew.cpu
        if self._stop[0]:
            return self._finish(None, 0, None, cancelled=True)
        total = sp.total_nodes(out)
        rows = None
        if self.want_divide:
            moves = _k.legal_moves(T, s)
            rows = {self.pos.move_to_uci(m): int(c) for m, c in zip(moves, sp.per_root(out))}
        st = None
        if self.want_stats:
            st = dict(zip(STAT_NAMES, (int(x) for x in stats[:, :len(STAT_NAMES)].sum(axis=0))))
        return self._finish(rows, total, st, items=sp.unique)

    def _finish(self, rows, total, st, items=0, cancelled=False) -> Result:
        seconds = time.perf_counter() - self._started
        c = self._ctr.reshape(self.workers, _s.SLOT)
        return Result(fen=self.pos.fen(), depth=self.depth, workers=self.workers, seconds=seconds,
                      cancelled=cancelled, nodes=None if cancelled else total,
                      divide=None if cancelled else rows, stats=None if cancelled else st,
                      hash=self._hash_stats(c, exact=True), items=items,
                      worker_cpu=tuple(getattr(self, "_worker_cpu", ())))


class _Crew:
    """A run's workers: worker 0 is the run's own thread, the others are threads started
    before the clock that wait for their items. Each runs one nogil kernel call that takes
    items from a shared counter until none are left."""

    def __init__(self, run: PerftRun, T, stats):
        self.run, self.T, self.stats = run, T, stats
        H = run._table if run._table is not None else np.zeros(_h.BUCKET_WORDS, np.uint64)  # never read without one
        self.H, self.mask = H, _h.bucket_mask(H)
        self.cpu = [0.0] * run.workers
        self.errors: list[BaseException] = []
        self.job = None
        self.go = threading.Event()
        self.threads = [threading.Thread(target=self._wait_and_work, args=(w,), name=f"perft-worker-{w}",
                                         daemon=True) for w in range(1, run.workers)]
        for t in self.threads:
            t.start()

    def count(self, items, rem) -> np.ndarray:
        """perft `rem` of every item, one count per item."""
        out = np.zeros(items.shape[0], np.uint64)
        self.job = (items, rem, out, _h.aligned_zeros(8).view(np.int64))
        self.go.set()
        self._work(0)
        for t in self.threads:
            t.join()
        if self.errors:
            raise self.errors[0]
        return out

    def dismiss(self):
        """Let waiting threads go (with no job they end at once)."""
        self.go.set()

    def _wait_and_work(self, w):
        self.go.wait()
        if self.job is not None:
            self._work(w)

    def _work(self, w):
        run = self.run
        items, rem, out, next_item = self.job
        cpu = time.thread_time()
        try:
            wbuf = _k.new_move_stack()
            if run.want_stats:
                from ..kernels import stats as _st      # imported (compiled or loaded) by prepare()
                _st.run_stats_worker(self.T, items, rem, out, next_item, wbuf, self.stats[w], run._ctr,
                                     w * _s.SLOT, run._stop)
            else:
                _s.run_worker(self.T, items, rem, out, next_item, wbuf, self.H, self.mask, run.min_depth,
                              run._ctr, w * _s.SLOT, run._stop)
        except BaseException as e:
            self.errors.append(e)
            run._stop[0] = 1          # the others need not finish a doomed run
        finally:
            # on a shared machine the wall clock measures the neighbours; this, the work
            self.cpu[w] = time.thread_time() - cpu


_prepared: set[bool] = set()
_preparing = threading.Lock()


def prepare(stats: bool = False) -> None:
    """Load every kernel a run calls (compiling them on an empty cache) and resolve their
    dispatch, by one tiny run, once per process. Every run calls it before its clock starts,
    so that a run's seconds hold the count alone; the GUI calls it behind its window."""
    with _preparing:
        if stats in _prepared:
            return
        pos = Position.from_fen(PREPARE_FEN)
        if stats:
            from ..kernels import stats as _st  # noqa: F401  (its explicit signatures compile at import)
            # a divide: the split below the root and the rows' moves in UCI, as a statistics
            # divide calls them
            PerftRun(pos, 2, 1, -1, True, True, _s.NO_TABLE, prepared=True).result()
        else:
            # two workers and a table: the split's perft, expand and merge, the divide's
            # legal moves and the hashed worker kernel, with the types every run passes
            PerftRun(pos, 4, 2, _h.MIN_EXP, True, False, _s.DEFAULT_MIN_DEPTH, prepared=True).result()
            mark_prepared(POOL_STEP)       # small requests count with these kernels from now on
        _prepared.add(stats)


def is_prepared() -> bool:
    """Whether this process has loaded the kernels of a plain run (prepare())."""
    return False in _prepared


def start_perft(pos: Position, depth: int, workers: int | None = None, hash_exp: int = -1,
                divide: bool = False, stats: bool = False,
                min_depth: int = _s.DEFAULT_MIN_DEPTH) -> PerftRun:
    """Start perft (or divide) of pos on `workers` threads (default: every core) with a
    table of 2^hash_exp entries (negative: none). stats=True also counts the
    chessprogramming columns (no table then: statistics are not a count a table can hold).
    Returns at once; bad arguments raise PoolError here, not later."""
    workers = default_workers() if workers is None else workers
    _check(depth, workers, hash_exp)
    return PerftRun(pos, depth, workers, hash_exp, divide, stats, min_depth)


def perft(pos: Position, depth: int, workers: int | None = None, hash_exp: int = -1,
          divide: bool = False, stats: bool = False) -> Result:
    """start_perft(...).result(): blocks until done."""
    return start_perft(pos, depth, workers, hash_exp, divide, stats).result()
