#!/usr/bin/env -S python3 -S
"""Planted Chess960 bug: no castling when the king already stands on its target square (g1 or
c1; only the rook moves), as a generator does that looks for the king's destination among the
squares it crosses and finds none. Moves are written king takes rook, as in python-chess's
chess960 mode."""
import chess

from perftree_protocol import run


def king_stays(board, move):
    if not board.is_castling(move):
        return False
    kingside = move.to_square > move.from_square
    return chess.square_file(move.from_square) == (6 if kingside else 2)


def moves(board):
    return [m for m in board.legal_moves if not king_stays(board, m)]


run(moves, chess960=True)
