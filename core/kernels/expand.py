"""Expanding a set of positions one ply at a time and merging transpositions, for
the split (core.counting.split) that feeds the pool and the cluster. Rows are kernel
states, one uint64 row of 11 per position.

Two rows are the same position when every field the game depends on is equal:
all bitboards, castling rights, side to move and the en-passant square when an
en-passant capture is possible at all. `forget_dead_ep` clears the en-passant
square where no pawn of the side to move attacks it (exactly when Polyglot
leaves it out of the key), so two such positions compare equal field by field.
The key orders the rows; equal keys are then confirmed on the whole row, so a
key collision never merges two different positions."""
import numpy as np
from numba import njit

from .cache import CACHE
from .board import CASTLING, ep_is_hashed, make
from .movegen import count_moves, generate_moves
from .perft import MAX_MOVES, _perft

EP_COL, KEY_COL = 7, 9
WIDTH = 11


@njit(cache=CACHE, _nrt=False, forceinline=True)
def row_state(rows, i):
    """Row i as the kernel state tuple the generator takes."""
    r = rows[i]
    return (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10])


@njit(cache=CACHE)
def child_counts(T, rows):
    """Number of legal moves of each row."""
    out = np.zeros(rows.shape[0], np.int64)
    for i in range(rows.shape[0]):
        out[i] = np.int64(count_moves(T, row_state(rows, i), CASTLING))
    return out


@njit(cache=CACHE)
def expand(T, rows, offsets, out, parent, move_index):
    """Write the children of row i into out[offsets[i]:offsets[i + 1]], with
    parent[j] = i and move_index[j] = the move's index in i's legal move list."""
    buf = np.zeros(MAX_MOVES, np.uint16)
    for i in range(rows.shape[0]):
        s = row_state(rows, i)
        n = generate_moves(T, s, buf, np.int64(0))     # int64, not a literal: one compile for every caller
        j = offsets[i]
        for k in range(n):
            c = make(T, s, buf[k])
            for f in range(WIDTH):
                out[j + k, f] = c[f]
            parent[j + k] = i
            move_index[j + k] = k


@njit(cache=CACHE)
def forget_dead_ep(T, rows):
    """Clear the en-passant square of rows where no en-passant capture can follow."""
    for i in range(rows.shape[0]):
        if rows[i, EP_COL] != 0 and not ep_is_hashed(T, rows[i, 0], rows[i, 5], rows[i, EP_COL]):
            rows[i, EP_COL] = np.uint64(0)


@njit(cache=CACHE)
def _same(rows, a, b):
    for f in range(WIDTH):
        if rows[a, f] != rows[b, f]:
            return False
    return True


@njit(cache=CACHE)
def merge(rows, mult, owner, order, keep, kept_mult):
    """Merge identical rows. `order` sorts the rows by (owner, key). Writes the index
    of each distinct (owner, position) into keep and its summed multiplicity into
    kept_mult, in `order`'s order; returns how many were kept."""
    n = 0
    i = 0
    m = order.shape[0]
    while i < m:
        # the run of rows sharing owner and key
        j = i + 1
        a = order[i]
        while j < m and owner[order[j]] == owner[a] and rows[order[j], KEY_COL] == rows[a, KEY_COL]:
            j += 1
        first = n
        for t in range(i, j):
            r = order[t]
            found = False
            for g in range(first, n):
                if _same(rows, keep[g], r):
                    kept_mult[g] += mult[r]
                    found = True
                    break
            if not found:
                keep[n] = r
                kept_mult[n] = mult[r]
                n += 1
        i = j
    return n


@njit(cache=CACHE)
def estimate(T, rows, depth):
    """A cost estimate per row: perft of min(depth, 2), at least 1."""
    buf = np.zeros(4 * MAX_MOVES, np.uint16)
    out = np.ones(rows.shape[0], np.int64)
    for i in range(rows.shape[0]):
        s = row_state(rows, i)
        if depth == 1:
            out[i] = max(np.int64(1), np.int64(count_moves(T, s, CASTLING)))
        elif depth >= 2:
            out[i] = max(np.int64(1), np.int64(_perft(T, s, 2, buf, 0)))
    return out


@njit(cache=CACHE)
def balance(costs, order, bins):
    """Longest-processing-time packing: visit rows in `order` (dearest first) and give
    each to the bin with the least cost so far. Returns each row's bin."""
    load = np.zeros(bins, np.int64)
    out = np.zeros(costs.shape[0], np.int64)
    for i in order:
        b = 0
        for k in range(1, bins):
            if load[k] < load[b]:
                b = k
        out[i] = b
        load[b] += costs[i]
    return out
