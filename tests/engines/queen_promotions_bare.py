#!/usr/bin/env -S python3 -S
"""Planted bug: a pawn only ever promotes to a queen, and the divide prints that promotion
without its piece letter (`b7b8 1`)."""
import chess

from perftree_protocol import legal, run


def moves(board):
    return [m for m in legal(board) if m.promotion in (None, chess.QUEEN)]


run(moves, write=lambda move: move.uci()[:4])
