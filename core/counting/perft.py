"""perft, divide and perft statistics on a Position (one thread, no hash table).

    >>> perft(Position.from_fen(START_FEN), 3)
    8902
"""
from __future__ import annotations

import numpy as np

from .. import kernels
from ..kernels import perft as _k
from ..kernels.board import make
from ..board.position import Position

STAT_NAMES = _k.STAT_NAMES


def perft(pos: Position, depth: int) -> int:
    """Leaf nodes `depth` plies below pos (depth 0 counts 1)."""
    return int(_k.perft(kernels.table(), pos.state(), depth, _k.new_move_stack()))


def divide(pos: Position, depth: int) -> dict[str, int]:
    """{uci_move: perft(depth - 1) below it} for every legal move."""
    if depth <= 0:
        return {}
    moves, counts = _k.divide(kernels.table(), pos.state(), depth, _k.new_move_stack())
    return {pos.move_to_uci(m): int(c) for m, c in zip(moves, counts)}


def perft_stats(pos: Position, depth: int) -> tuple[int, dict[str, int]]:
    """(nodes, statistics) with the chessprogramming table's columns, counted on leaf moves."""
    from ..kernels import stats as _stats      # compiled on first use: most runs never need it
    stats = np.zeros(len(STAT_NAMES), np.int64)
    nodes = int(_stats.perft_stats(kernels.table(), pos.state(), depth, _k.new_move_stack(), stats))
    return nodes, dict(zip(STAT_NAMES, (int(x) for x in stats)))


def child_state(pos: Position, uci: str):
    """The kernel state after one move (for callers that descend without FENs)."""
    return make(kernels.table(), pos.state(), np.uint16(pos.kernel_move(uci)))
