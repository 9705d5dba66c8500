#!/usr/bin/env -S python3 -S
"""Planted bug: pawns never promote to a knight."""
import chess

from perftree_protocol import legal, run


def moves(board):
    return [m for m in legal(board) if m.promotion != chess.KNIGHT]


run(moves)
