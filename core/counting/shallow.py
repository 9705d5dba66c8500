"""Small perfts and divides from the generator kernels alone (core/kernels/listed.py), one thread:
the first answer of a fresh machine in seconds. A request of at most SHALLOW_DEPTH plies, or
whose tree is estimated at most SHALLOW_LEAVES leaves, never imports the pool, perft 2's C
kernels or the search, all compiled (or loaded) at their import: on an empty cache that is
most of a minute on a slow host, for an answer the move list gives in milliseconds. Once the
pool's kernels are in the cache (kernel_cache.POOL_STEP), they count every tree estimated
beyond WARM_LEAVES: loading them costs about a tenth of a second of CPU, and they count two to
three times faster than the move list.

    if is_small(pos, depth):
        prepare(depth)                        # loads the generator (compiles it once per machine)
        run = start_shallow(pos, depth, divide=True)
        run.result().divide                   # {uci: count}, a Result as the pool's

A ShallowRun is driven as the pool's PerftRun is (result, cancel, snapshot, done): its kernel
runs on a thread of its own, nogil, and reads a stop flag, so Ctrl-C stops it at once. Its
kernels are loaded by `prepare` before its clock starts, so its seconds hold the count alone."""
from __future__ import annotations

import sys
import threading
import time

import numpy as np

from ..board.position import Position
from ..kernel_cache import POOL_STEP, is_prepared
from .results import MOVE_LIST, PREPARE_FEN, CountingThread, Result, Snapshot, WorkerCounters

SHALLOW_DEPTH = 3                 # up to here, always: at most 218^3 leaves, milliseconds
SHALLOW_LEAVES = 20_000_000       # beyond, an estimated tree up to this: under 0.1 s at the move list's speed
WARM_LEAVES = 1_000_000           # the same once the pool's kernels are cached: a few ms either way

_prepared: set[int] = set()         # 1: the legal moves; 2: the walk as well
_preparing = threading.Lock()


def _generator():
    """(T, movegen), imported at first use: importing them loads numba."""
    from .. import kernels
    from ..kernels import movegen
    return kernels.table(), movegen


def _listed():
    """core.kernels.listed, whose walk compiles (or loads) when it is imported."""
    from ..kernels import listed
    return listed


def prepare(depth: int = 2) -> None:
    """Load what a request of `depth` plies calls (compiling it on an empty cache), once per
    process: the legal moves and move_to_uci's decoders for any depth, the move-list walk for
    depth 2 and more (a divide of depth 1 is the legal moves alone). Nothing of the pool."""
    need = 1 if depth <= 1 else 2
    with _preparing:
        if need in _prepared:
            return
        pos = Position.from_fen(PREPARE_FEN)
        T, movegen = _generator()
        for m in movegen.legal_moves(T, pos.state()):
            pos.move_to_uci(m)
        if need == 2:
            _walk(pos, 2)
        _prepared.update(range(1, need + 1))


def _walk(pos: Position, depth: int, counts=None, nodes=None, stop=None) -> int:
    T, movegen = _generator()
    listed = _listed()
    return int(listed.walk(T, pos.state(), depth, movegen.new_move_stack(),
                           0, listed.new_counts() if counts is None else counts,
                           np.zeros(1, np.int64) if nodes is None else nodes,
                           np.zeros(1, np.int64) if stop is None else stop))


def estimate(pos: Position, depth: int) -> int:
    """The leaves `depth` plies below pos, estimated from the exact counts of the first plies
    (up to 3): the last of them times the branching factor it shows, once per ply left. Within
    a factor of about 1.5 on the standard positions (start position depth 5: 4.4 M for 4.9 M;
    position 4, whose root is in check: 12.2 M for 15.8 M)."""
    if depth <= 0:
        return 1
    prepare(depth)
    known = [1]
    for d in range(1, min(depth, SHALLOW_DEPTH) + 1):
        known.append(_walk(pos, d))
        if known[-1] == 0:
            return 0
    if len(known) - 1 == depth:
        return known[-1]
    ratio = known[-1] / known[-2]
    return int(known[-1] * ratio ** (depth - len(known) + 1))


def pool_is_cached() -> bool:
    """Whether the pool's kernels load without a compile: prepared in this process, or in the
    cache (a file each: known without importing the pool)."""
    pool = sys.modules.get(__package__ + ".pool")
    return (pool is not None and pool.is_prepared()) or is_prepared(POOL_STEP)


def leaf_limit() -> int:
    """The biggest estimated tree the move list counts (beyond SHALLOW_DEPTH plies)."""
    return WARM_LEAVES if pool_is_cached() else SHALLOW_LEAVES


def is_small(pos: Position, depth: int) -> bool:
    """Whether the move list alone answers this request: depth <= SHALLOW_DEPTH, or an estimated
    tree of at most leaf_limit() leaves. Loads the generator when it has to count (depth > 3)."""
    return depth <= SHALLOW_DEPTH or estimate(pos, depth) <= leaf_limit()


class ShallowRun(CountingThread):
    """One perft or divide through the move list, on a thread of its own (cancel, done,
    result: CountingThread). Build it with start_shallow."""

    workers = 1

    def __init__(self, pos: Position, depth: int, divide: bool):
        self.pos = pos
        self.depth = int(depth)
        self.want_divide = divide
        self._nodes = np.zeros(1, np.int64)
        self._stop = np.zeros(1, np.int64)
        self._begin("perft-shallow")

    def snapshot(self) -> Snapshot:
        nodes = int(self._nodes[0])
        done = self._done.is_set()
        return Snapshot(elapsed=self._elapsed(), nodes=nodes, workers=(WorkerCounters(nodes, 0, 0, 0, 0, 0),),
                        hash=None, items_done=0, items_total=0, done=done,
                        cancelled=done and self._result is not None and self._result.cancelled)

    def _run(self) -> Result:
        prepare(self.depth)             # loaded already by whoever decided (is_small): a no-op then
        T, movegen = _generator()
        s = self.pos.state()
        if self.depth >= 2:
            listed = _listed()
            buf, counts = movegen.new_move_stack(), listed.new_counts()
        cpu = time.thread_time()
        self._started = time.perf_counter()
        rows = None
        if self.depth <= 0:
            total, rows = 1, {} if self.want_divide else None
        elif self.depth == 1:
            moves = movegen.legal_moves(T, s)
            total = len(moves)
            self._nodes[0] = total
            if self.want_divide:
                rows = {self.pos.move_to_uci(m): 1 for m in moves}
        else:
            total = int(listed.walk(T, s, self.depth, buf, 0, counts, self._nodes, self._stop))
            if self.want_divide and not self._stop[0]:
                moves = movegen.legal_moves(T, s)
                rows = {self.pos.move_to_uci(m): int(c) for m, c in zip(moves, counts)}
        seconds = time.perf_counter() - self._started
        cancelled = bool(self._stop[0])
        return Result(fen=self.pos.fen(), depth=self.depth, workers=1, seconds=seconds, cancelled=cancelled,
                      nodes=None if cancelled else total, divide=None if cancelled else rows,
                      worker_cpu=(time.thread_time() - cpu,), path=MOVE_LIST)


def divide(pos: Position, depth: int) -> dict[str, int]:
    """{uci: perft(depth - 1) below it} for every legal move, through the move list, blocking:
    for the small known answers (calibration's probes) whatever their estimate."""
    prepare(depth)
    return start_shallow(pos, depth, divide=True).result().divide


def start_shallow(pos: Position, depth: int, divide: bool = False) -> ShallowRun:
    """Start perft (or divide) of pos through the move list; returns at once. Call
    prepare(depth) first where a compile should not happen on the run's thread (Ctrl-C
    interrupts a compile on the main thread only)."""
    return ShallowRun(pos, depth, divide)
