#!/usr/bin/env -S python3 -S
"""Planted Chess960 bug: castling tests the squares the king crosses with the castling rook
still on its square, so a rook pinned to the king along the first rank may castle (the bug
Stockfish once fixed). Moves are written king takes rook, as in python-chess's chess960 mode."""
import sys

import chess

from perftree_protocol import run


def unsafe_castles(board):
    """Castlings whose only fault is that the rook, once moved, uncovers the king."""
    if board.is_check():
        return []
    us, enemy = board.turn, not board.turn
    king = board.king(us)
    rank = 0 if us == chess.WHITE else 7
    out = []
    for rook in chess.scan_forward(board.clean_castling_rights() & chess.BB_RANKS[rank]):
        kingside = rook > king
        king_to = chess.square(6 if kingside else 2, rank)
        rook_to = chess.square(5 if kingside else 3, rank)
        crossed = chess.between(king, king_to) | chess.BB_SQUARES[king_to]
        path = crossed | chess.between(rook, rook_to) | chess.BB_SQUARES[rook_to]
        others = board.occupied & ~chess.BB_SQUARES[king] & ~chess.BB_SQUARES[rook]
        if path & others:
            continue
        seen = board.occupied & ~chess.BB_SQUARES[king]          # the bug: the rook stays put
        if not any(board.attackers_mask(enemy, sq, seen) for sq in chess.scan_forward(crossed)):
            out.append(chess.Move(king, rook))
    return out


def moves(board):
    out = list(board.legal_moves)
    return out + [m for m in unsafe_castles(board) if m not in out]


run(moves, chess960=True)
