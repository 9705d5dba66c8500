#!/usr/bin/env -S python3 -S
"""Planted bug, the en-passant check many authors write: a pinned pawn never captures en passant,
and any other en passant is legal unless the king is in check. It misses a pawn pinned along a
diagonal capturing en passant along that diagonal (legal), and plays en passant through a rank
pin (the two pawns leave the rank together: neither alone was pinned)."""
import chess

from perftree_protocol import legal, run


def moves(board):
    out = [m for m in legal(board) if not board.is_en_passant(m)]
    for m in board.pseudo_legal_moves:
        if board.is_en_passant(m) and not board.is_pinned(board.turn, m.from_square) and \
                (not board.is_check() or board.is_legal(m)):
            out.append(m)
    return out


run(moves)
