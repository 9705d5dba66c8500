"""perft and divide through the move list alone (generate_moves, make, count_moves): the kernel of
small requests (core.counting.shallow). It imports none of the kernels compiled at import (perft
2's C kernels in two_ply, the pool's search, perft's recursion), so a shallow perft or divide
compiles or loads the generator and this one function, a few seconds on an empty cache instead
of every kernel the pool may call. Chess960 rights need nothing else: `make` and `count_moves`
with board.CASTLING handle them.

    walk(T, s, depth, buf, 0, counts, nodes, stop)   # leaves below s; counts[i]: below the i-th move
"""
import numpy as np
from numba import njit, types

from .cache import CACHE
from .bits import at, atomic_load
from .board import CASTLING, STATE, make
from .by_address import TABLE
from .movegen import MAX_MOVES, MOVES, count_moves, generate_moves

COUNTS = types.Array(types.uint64, 1, "C")
FLAG = types.Array(types.int64, 1, "C")


def new_counts():
    """One count per root move (walk's `counts`)."""
    return np.zeros(MAX_MOVES, np.uint64)


# An explicit signature: a recursive kernel is cache-safe only so (docs/notebook/startup.md), and it
# compiles (or loads) when this module is imported, which only a small request does. nogil: it
# runs on a thread of its own while the caller waits for Ctrl-C.
@njit(types.uint64(TABLE, STATE, types.int64, MOVES, types.int64, COUNTS, FLAG, FLAG), nogil=True, cache=CACHE,
      _nrt=False)
def walk(T, s, depth, buf, ply, counts, nodes, stop):
    """Leaf nodes `depth` (>= 1) plies below s. At ply 0, counts[i] receives those below the
    i-th move generate_moves lists (legal_moves lists them in the same order): a divide.
    nodes[0] grows by each leaf parent's count as it goes (for a live progress line); once
    stop[0] is set, every node not yet counted counts 0 (the caller discards the total)."""
    if atomic_load(stop, 0):
        return np.uint64(0)
    base = ply * MAX_MOVES
    end = generate_moves(T, s, buf, base)
    total = np.uint64(0)
    for i in range(base, end):
        if depth == 1:
            n = np.uint64(1)
        elif depth == 2:
            n = np.uint64(count_moves(T, make(T, s, at(buf, i)), CASTLING))
        else:
            n = walk(T, make(T, s, at(buf, i)), depth - 1, buf, ply + 1, counts, nodes, stop)
        if ply == 0:
            counts[i] = n
        total += n
    if depth <= 2:
        nodes[0] += np.int64(total)
    return total
