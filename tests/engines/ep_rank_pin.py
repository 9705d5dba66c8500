#!/usr/bin/env -S python3 -S
"""Planted bug: en passant is allowed even when removing both pawns from the rank exposes the
king to a rook or queen on that rank (the classic "ep through a rank pin")."""
import chess

from perftree_protocol import legal, run


def rank_pinned_ep(board, move):
    king = board.king(board.turn)
    if king is None or chess.square_rank(king) != chess.square_rank(move.from_square):
        return False
    board.push(move)
    exposed = any(chess.square_rank(s) == chess.square_rank(king)
                  and board.piece_type_at(s) in (chess.ROOK, chess.QUEEN)
                  for s in board.attackers(board.turn, king))
    board.pop()
    return exposed


def moves(board):
    extra = [m for m in board.pseudo_legal_moves
             if board.is_en_passant(m) and not board.is_legal(m) and rank_pinned_ep(board, m)]
    return legal(board) + extra


run(moves)
