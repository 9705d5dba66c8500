"""A cluster run's tasks: the split's positions packed into tasks of about equal estimated cost,
and what a Dask worker runs for one (perft of every position on the worker's own core, with that
worker process's own hash table when the run asks for one)."""
from __future__ import annotations

import hashlib
import os
import socket
import time
from dataclasses import dataclass

import numpy as np

from .. import kernels
from ..kernels import expand as _x
from ..kernels import hashtable as _h
from ..kernels import perft as _k
from ..kernels import search as _s
from ..limits import table_bytes
from .cluster_settings import ClusterError
from .split import Split


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
