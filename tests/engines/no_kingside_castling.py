#!/usr/bin/env -S python3 -S
"""Planted bug: king-side castling is never generated (queen-side castling is right)."""
import chess

from perftree_protocol import legal, run


def moves(board):
    return [m for m in legal(board)
            if not (board.is_castling(m) and chess.square_file(m.to_square) > chess.square_file(m.from_square))]


run(moves)
