"""perft with bulk counting, divide, and the chessprogramming statistics."""
import numpy as np
from numba import njit, types

from .bits import popcnt, tzcnt
from .board import FLAG_CASTLE, FLAG_EP, FLAG_PROMOTION, ONE, make
from .movegen import count_moves, generate_moves, king_safety

MAX_PLY = 64
MAX_MOVES = 256            # more than the 218 legal moves any position has

STATE = types.UniTuple(types.uint64, 11)
TABLE = types.Array(types.uint64, 1, "C", readonly=True)
MOVES = types.Array(types.uint16, 1, "C")
STATS = types.Array(types.int64, 1, "C")

# statistics slots, in the chessprogramming table's order
CAPTURES, EP, CASTLES, PROMOTIONS, CHECKS, DISCOVERY_CHECKS, DOUBLE_CHECKS, CHECKMATES = range(8)
STAT_NAMES = ("captures", "ep", "castles", "promotions", "checks", "discovery_checks",
              "double_checks", "checkmates")


def new_move_stack():
    return np.zeros(MAX_PLY * MAX_MOVES, np.uint16)


@njit(types.uint64(TABLE, STATE, types.int64, MOVES, types.int64), cache=True, _nrt=False)
def _perft(T, s, depth, buf, ply):
    # depth >= 2 here; the leaf parents (depth 1) only count
    base = ply * MAX_MOVES
    end = generate_moves(T, s, buf, base)
    total = np.uint64(0)
    if depth == 2:
        for i in range(base, end):
            total += count_moves(T, make(T, s, buf[i]))
    else:
        for i in range(base, end):
            total += _perft(T, make(T, s, buf[i]), depth - 1, buf, ply + 1)
    return total


@njit(cache=True)
def perft(T, s, depth, buf):
    """Number of leaf nodes `depth` plies below s."""
    if depth <= 0:
        return np.uint64(1)
    if depth == 1:
        return count_moves(T, s)
    return _perft(T, s, depth, buf, 0)


@njit(cache=True)
def legal_moves(T, s):
    buf = np.zeros(MAX_MOVES, np.uint16)
    n = generate_moves(T, s, buf, 0)
    return buf[:n].copy()


@njit(cache=True)
def divide(T, s, depth, buf):
    """(moves, counts): each legal move with the perft of depth - 1 below it."""
    moves = legal_moves(T, s)
    counts = np.zeros(moves.shape[0], np.uint64)
    for i in range(moves.shape[0]):
        counts[i] = perft(T, make(T, s, moves[i]), depth - 1, buf)
    return moves, counts


@njit(cache=True)
def _leaf_stats(T, s, m, stats):
    """Classify one leaf move as the chessprogramming table does."""
    mi = np.int64(m)
    flag = (mi >> 12) & 3
    to = (mi >> 6) & 63
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
        if count_moves(T, child) == 0:
            stats[CHECKMATES] += 1


@njit(types.uint64(TABLE, STATE, types.int64, MOVES, types.int64, STATS), cache=True)
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


@njit(cache=True)
def perft_stats(T, s, depth, buf, stats):
    """perft, filling stats[0:8] with the leaf-move statistics."""
    if depth <= 0:
        return np.uint64(1)
    return _perft_stats(T, s, depth, buf, 0, stats)
