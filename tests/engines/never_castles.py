#!/usr/bin/env -S python3 -S
"""Planted bug: no castling move is ever generated."""
from perftree_protocol import legal, run


def moves(board):
    return [m for m in legal(board) if not board.is_castling(m)]


run(moves)
