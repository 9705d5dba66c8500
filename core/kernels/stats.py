"""The chessprogramming perft statistics (captures, en passant, castles, promotions, checks,
discovered and double checks, mates), counted on every leaf move: one thread (perft_stats)
and the pool's worker (run_stats_worker, the twin of search.run_worker).

A module of its own so that only runs asking for statistics compile it: its kernels have
explicit signatures (compiled at import, which is what keeps their recursion loadable from
the on-disk cache) and were about a fifth of the first compile when the move generator's
modules carried them. Import it at first use, from one thread, before starting workers."""
import numpy as np
from numba import njit, types

from .cache import CACHE
from .bits import atomic_load, popcnt
from .board import CASTLING, FLAG_CASTLE, FLAG_EP, FLAG_PROMOTION, ONE, make, move_flag, move_to
from .expand import row_state
from .movegen import count_moves, generate_moves, king_safety
from .perft import (CAPTURES, CASTLES, CHECKMATES, CHECKS, DISCOVERY_CHECKS, DOUBLE_CHECKS, EP,
                    MAX_MOVES, MOVES, PROMOTIONS, STATE, STATS, TABLE)
from .search import COUNTERS, FLAG, ITEMS, NODES, take_item


@njit(cache=CACHE)
def _leaf_stats(T, s, m, stats):
    """Classify one leaf move as the chessprogramming table does."""
    flag = move_flag(m)
    to = move_to(m)
    if flag == FLAG_EP:
        stats[EP] += 1
        stats[CAPTURES] += 1
    elif (s[6] ^ s[5]) & (ONE << np.uint64(to)):
        stats[CAPTURES] += 1
    if flag == FLAG_CASTLE:
        stats[CASTLES] += 1
    elif flag == FLAG_PROMOTION:
        stats[PROMOTIONS] += 1
    child = make(T, s, m)
    ksq, checkers, evasion, pin_o, pin_d, banned = king_safety(T, child)
    if checkers:
        stats[CHECKS] += 1
        # discovered: the moved piece, on its destination (mirrored for the child), is not
        # among the checkers. A double check that includes the moved piece is not counted
        # here; that is how the published chessprogramming figures count.
        if not (checkers & (ONE << np.uint64(to ^ 56))):
            stats[DISCOVERY_CHECKS] += 1
        if popcnt(checkers) > 1:
            stats[DOUBLE_CHECKS] += 1
        if count_moves(T, child, CASTLING) == 0:
            stats[CHECKMATES] += 1


@njit(types.uint64(TABLE, STATE, types.int64, MOVES, types.int64, STATS), cache=CACHE)
def _perft_stats(T, s, depth, buf, ply, stats):
    base = ply * MAX_MOVES
    end = generate_moves(T, s, buf, base)
    total = np.uint64(0)
    if depth == 1:
        for i in range(base, end):
            _leaf_stats(T, s, buf[i], stats)
        return np.uint64(end - base)
    for i in range(base, end):
        total += _perft_stats(T, make(T, s, buf[i]), depth - 1, buf, ply + 1, stats)
    return total


@njit(cache=CACHE)
def perft_stats(T, s, depth, buf, stats):
    """perft, filling stats[0:8] with the leaf-move statistics."""
    if depth <= 0:
        return np.uint64(1)
    return _perft_stats(T, s, depth, buf, 0, stats)


@njit(types.uint64(TABLE, STATE, types.int64, MOVES, types.int64, STATS, COUNTERS, types.int64,
                   FLAG), cache=CACHE)
def _search_stats(T, s, depth, buf, ply, stats, ctr, slot, stop):
    # depth >= 1; the chessprogramming statistics need every leaf move, so no bulk count
    if atomic_load(stop, 0):
        return np.uint64(0)
    base = ply * MAX_MOVES
    end = generate_moves(T, s, buf, base)
    if depth == 1:
        for i in range(base, end):
            _leaf_stats(T, s, buf[i], stats)
        ctr[slot + NODES] += end - base
        return np.uint64(end - base)
    total = np.uint64(0)
    for i in range(base, end):
        total += _search_stats(T, make(T, s, buf[i]), depth - 1, buf, ply + 1, stats, ctr, slot, stop)
    return total


# explicit, so the worker threads find it compiled (or loaded) by the import
@njit(types.none(TABLE, types.Array(types.uint64, 2, "C"), types.int64, types.Array(types.uint64, 1, "C"),
                 FLAG, MOVES, STATS, COUNTERS, types.int64, FLAG), nogil=True, cache=CACHE)
def run_stats_worker(T, items, depth, out, next_item, buf, stats, ctr, slot, stop):
    """run_worker's twin for perft with statistics (stats: this worker's own 8 counters)."""
    i = take_item(next_item, items.shape[0], stop)
    while i >= 0:
        if depth <= 0:
            ctr[slot + NODES] += 1
            out[i] = np.uint64(1)
        else:
            out[i] = _search_stats(T, row_state(items, i), depth, buf, 0, stats, ctr, slot, stop)
        ctr[slot + ITEMS] += 1
        i = take_item(next_item, items.shape[0], stop)
