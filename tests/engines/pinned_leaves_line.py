#!/usr/bin/env -S python3 -S
"""Planted bug: when not in check, a pinned piece (not the king, not en passant) may leave
its pin line."""
from perftree_protocol import legal, run


def moves(board):
    if board.is_check():
        return legal(board)
    extra = [m for m in board.pseudo_legal_moves
             if board.is_pinned(board.turn, m.from_square) and not board.is_en_passant(m)
             and not board.is_legal(m)]
    return legal(board) + extra


run(moves)
