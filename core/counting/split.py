"""Cutting a perft tree a few plies below the root into positions to count,
for the worker pool (core.counting.pool) and the Dask cluster (core.counting.cluster) alike.

    sp = split_positions(pos, 3, divide=True)
    counts = <perft of depth - 3 of each row of sp.rows>
    sp.total_nodes(counts), sp.per_root(counts)

The root is expanded one ply at a time with the core. With merge=True, after
every ply identical positions are kept once with their multiplicity (how many
paths lead to them): identical means every field the game depends on is equal
(core.kernels.expand), never the key alone, so a key collision cannot make two
different positions share one count. With divide=True each root move keeps its
own copies, so the divide can be read back per root move.

Rows stay in the order the moves generate them (the first path to each position),
so siblings sit next to each other: workers taking rows in order then meet each
other's transpositions while they are still in the hash table."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import kernels
from ..errors import PerftscopeError
from ..limits import SPLIT_ROWS_LIMIT
from ..kernels import expand as _x
from ..board.position import Position

WIDTH = _x.WIDTH


class SplitError(PerftscopeError, ValueError):
    """A split that would hold too many positions at once."""


@dataclass(frozen=True)
class Split:
    """Positions `plies` below the root. owner[i] is the index (in the root's legal
    move list) of the root move above row i when split for divide, else 0."""
    plies: int
    rows: np.ndarray           # (n, WIDTH) uint64 kernel states
    mult: np.ndarray           # (n,) uint64: paths from the root to the position
    owner: np.ndarray          # (n,) int64
    root_moves: int            # legal moves at the root
    total: int                 # positions at the split depth counted with repetition

    @property
    def unique(self) -> int:
        return self.rows.shape[0]

    @property
    def merge_ratio(self) -> float:
        return self.unique / self.total if self.total else 1.0

    def weighted(self, counts: np.ndarray) -> np.ndarray:
        """Each row's count times the paths leading to it."""
        return np.asarray(counts, np.uint64) * self.mult

    def total_nodes(self, counts: np.ndarray) -> int:
        return int(self.weighted(counts).sum(dtype=np.uint64))

    def per_root(self, counts: np.ndarray) -> np.ndarray:
        """The divide: leaves below each root move (a split made with divide=True)."""
        out = np.zeros(self.root_moves, np.uint64)
        np.add.at(out, self.owner, self.weighted(counts))
        return out


def split_positions(pos: Position, plies: int, divide: bool = False, merge: bool = True,
                    max_rows: int = SPLIT_ROWS_LIMIT) -> Split:
    """Expand pos `plies` plies; with merge, keep each distinct position once (per root
    move when divide) with its multiplicity, after every ply."""
    T = kernels.table()
    rows = np.array([pos.state()], np.uint64)
    _x.forget_dead_ep(T, rows)
    mult = np.ones(1, np.uint64)
    owner = np.zeros(1, np.int64)
    root_moves = int(_x.child_counts(T, rows)[0])
    for ply in range(plies):
        counts = _x.child_counts(T, rows)
        offsets = np.zeros(rows.shape[0] + 1, np.int64)
        np.cumsum(counts, out=offsets[1:])
        n = int(offsets[-1])
        if n > max_rows:
            raise SplitError(f"a split of {plies} plies is too deep for this position: ply {ply + 1} "
                             f"has {n:,} positions before merging (at most {max_rows:,})")
        children = np.zeros((n, WIDTH), np.uint64)
        parent = np.zeros(n, np.int64)
        move_index = np.zeros(n, np.int64)
        _x.expand(T, rows, offsets, children, parent, move_index)
        _x.forget_dead_ep(T, children)
        child_owner = move_index if (divide and ply == 0) else owner[parent]
        child_mult = mult[parent]
        if not merge:
            rows, mult, owner = children, child_mult, child_owner
            continue
        if divide:
            order = np.lexsort((children[:, _x.KEY_COL], child_owner))
        else:
            order = np.argsort(children[:, _x.KEY_COL], kind="stable")
        keep = np.zeros(n, np.int64)
        kept_mult = np.zeros(n, np.uint64)
        k = _x.merge(children, child_mult, child_owner, order, keep, kept_mult)
        first = np.argsort(keep[:k], kind="stable")        # back to generation order
        keep, kept_mult = keep[:k][first], kept_mult[:k][first]
        rows, mult, owner = children[keep], kept_mult, child_owner[keep]
    return Split(plies=plies, rows=np.ascontiguousarray(rows), mult=np.ascontiguousarray(mult),
                 owner=np.ascontiguousarray(owner), root_moves=root_moves,
                 total=int(mult.sum(dtype=np.uint64)))
