"""perft with bulk counting and divide (the statistics kernels live in .stats).

Every jitted function is compiled to machine code of its own with all it calls linked
in: a thin jitted wrapper around `_perft` would compile the whole generator once more,
so `perft`, which only picks the kernel for the depth, is plain Python, and perft 2's
kernels are called through their addresses (two_ply.bind, by_address)."""
import numpy as np
from numba import njit, types

from .cache import CACHE
from .bits import at
from .board import CASTLING, CR_RIGHTS, STATE, make
from .movegen import MAX_MOVES, MOVES, count_moves, generate_moves, legal_moves, new_move_stack  # noqa: F401 (callers' stack)
from . import by_address, table
from .tables import PERFT2_KERNELS
from .two_ply import TABLE, bind, kernel_for

bind(table())       # before anything here can run: _perft calls perft 2 through the table

STATS = types.Array(types.int64, 1, "C")

# statistics slots, in the chessprogramming table's order (counted by .stats)
CAPTURES, EP, CASTLES, PROMOTIONS, CHECKS, DISCOVERY_CHECKS, DOUBLE_CHECKS, CHECKMATES = range(8)
STAT_NAMES = ("captures", "ep", "castles", "promotions", "checks", "discovery_checks",
              "double_checks", "checkmates")


@njit(types.uint64(TABLE, STATE, MOVES, types.int64), cache=CACHE, _nrt=False)
def _perft2_listed(T, s, buf, ply):
    """perft 2 through the move list and `make`: Chess960 castling rights, which
    two_ply.perft2 leaves to the general make."""
    base = ply * MAX_MOVES
    end = generate_moves(T, s, buf, base)
    total = np.uint64(0)
    for i in range(base, end):
        total += count_moves(T, make(T, s, at(buf, i)), CASTLING)
    return total


@njit(types.uint64(TABLE, STATE, types.int64, MOVES, types.int64), cache=CACHE, _nrt=False)
def _perft(T, s, depth, buf, ply):
    # depth >= 2 here; the leaf parents (depth 1) only count
    if depth == 2:
        if s[8] > CR_RIGHTS:
            return _perft2_listed(T, s, buf, ply)
        address = at(T, PERFT2_KERNELS + kernel_for(s))
        if address == 0:
            return _perft2_listed(T, s, buf, ply)    # a table two_ply.bind never saw: slower, not a crash
        return by_address.call(address, T, s)
    base = ply * MAX_MOVES
    end = generate_moves(T, s, buf, base)
    total = np.uint64(0)
    for i in range(base, end):
        total += _perft(T, make(T, s, at(buf, i)), depth - 1, buf, ply + 1)
    return total


def perft(T, s, depth, buf):
    """Number of leaf nodes `depth` plies below s."""
    if depth <= 0:
        return np.uint64(1)
    if depth == 1:
        return count_moves(T, s, CASTLING)
    return _perft(T, s, depth, buf, 0)


@njit(cache=CACHE)
def divide(T, s, depth, buf):
    """(moves, counts): each legal move with the perft of depth - 1 below it."""
    moves = legal_moves(T, s)
    counts = np.ones(moves.shape[0], np.uint64)
    for i in range(moves.shape[0]):
        child = make(T, s, moves[i])
        if depth == 2:
            counts[i] = count_moves(T, child, CASTLING)
        elif depth > 2:
            counts[i] = _perft(T, child, depth - 1, buf, 0)
    return moves, counts
