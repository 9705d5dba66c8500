"""Profiling walks: the perft tree walked with the leaf parents' work cut at a chosen stage,
so that subtracting the timings shows where the time goes (no sampling, no instrumentation
inside the real kernels)."""
import numpy as np
from numba import njit, types

from .cache import CACHE
from .board import CASTLING, CR_RIGHTS, NO_CASTLING, PAWNS_AND_ROOKS, STANDARD_CASTLING, make
from .movegen import count_moves, generate_moves, king_destinations, legality_masks, nothing_fixed
from .perft import MAX_MOVES, MOVES, STATE, TABLE
from .tables import RANK_7
from .two_ply import children_shape, kernel_for

# what a leaf parent does in each stage
STAGE_NOTHING, STAGE_MASKS, STAGE_KING, STAGE_FULL = 0, 1, 2, 3


@njit(cache=CACHE, _nrt=False, forceinline=True)
def _leaf_parents(T, s, buf, base, end, stage, shape):
    """The depth-2 node's children, each stopped after `stage`; `shape` the constant perft
    picks its depth-2 kernel by (board.py), the same here."""
    total = np.uint64(0)
    for i in range(base, end):
        c = make(T, s, buf[i])
        if stage == STAGE_NOTHING:
            total += c[6] & np.uint64(1)
        elif stage == STAGE_MASKS:
            masks = legality_masks(T, c)
            total += (masks[1] ^ masks[3] ^ masks[4]) & np.uint64(1)
        elif stage == STAGE_KING:
            masks = legality_masks(T, c)
            king_to, castles = king_destinations(T, c, masks[0], masks[1], shape, nothing_fixed())
            total += (king_to ^ masks[3] ^ masks[4]) & np.uint64(1)
        else:
            total += count_moves(T, c, shape)
    return total


@njit(types.uint64(TABLE, STATE, types.int64, MOVES, types.int64, types.int64), cache=CACHE, _nrt=False)
def staged_walk(T, s, depth, buf, ply, stage):
    """perft's walk (depth >= 2) where each leaf parent stops after `stage`. The returned
    number depends on every stage's result so nothing is optimised away."""
    base = ply * MAX_MOVES
    end = generate_moves(T, s, buf, base)
    total = np.uint64(0)
    if depth == 2:
        # the children's shape of the kernel perft picks, each passed as a constant; but every
        # child is made here, a promoted piece too, so pawns and rooks only where none can promote
        shape = children_shape(kernel_for(s)) if s[8] <= CR_RIGHTS else CASTLING
        if shape == PAWNS_AND_ROOKS and (s[0] & s[5] & RANK_7) == 0:
            return _leaf_parents(T, s, buf, base, end, stage, PAWNS_AND_ROOKS)
        if shape == STANDARD_CASTLING:
            return _leaf_parents(T, s, buf, base, end, stage, STANDARD_CASTLING)
        if shape != CASTLING:
            return _leaf_parents(T, s, buf, base, end, stage, NO_CASTLING)
        return _leaf_parents(T, s, buf, base, end, stage, CASTLING)
    for i in range(base, end):
        total += staged_walk(T, make(T, s, buf[i]), depth - 1, buf, ply + 1, stage)
    return total
