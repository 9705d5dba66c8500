"""The move-list walk (core/kernels/listed.py): its counts per root move in legal_moves' order,
the same as the perft 2 kernels' divide, and its stop flag."""
import threading
import time

import numpy as np

from perftscope.core import kernels
from perftscope.core.board.position import START_FEN, Position
from perftscope.core.kernels import listed, movegen
from perftscope.core.kernels import perft as kperft

from ..random_positions import random_positions


def _walk(pos, depth, stop=None):
    counts, nodes = listed.new_counts(), np.zeros(1, np.int64)
    total = listed.walk(kernels.table(), pos.state(), depth, movegen.new_move_stack(), 0, counts, nodes,
                        np.zeros(1, np.int64) if stop is None else stop)
    return int(total), counts, int(nodes[0])


def test_counts_per_root_move_follow_legal_moves_and_match_divide():
    T = kernels.table()
    for pos in random_positions(60, seed=33):
        for depth in (1, 2, 3):
            total, counts, nodes = _walk(pos, depth)
            moves, expected = kperft.divide(T, pos.state(), depth, kperft.new_move_stack())
            assert list(movegen.legal_moves(T, pos.state())) == list(moves)
            assert list(counts[:len(moves)]) == list(expected), (pos.fen(), depth)
            assert total == nodes == int(expected.sum()), (pos.fen(), depth)


def test_a_set_stop_flag_ends_the_walk_at_once():
    stop = np.zeros(1, np.int64)
    out = {}
    worker = threading.Thread(target=lambda: out.setdefault("r", _walk(Position.from_fen(START_FEN), 8, stop)))
    worker.start()                  # perft 8: 85 G nodes, hours at the move list's speed
    time.sleep(0.3)
    stop[0] = 1
    worker.join(2)
    assert not worker.is_alive()
    total, _, nodes = out["r"]
    assert 0 < nodes < 84_998_978_956 and total < 84_998_978_956
