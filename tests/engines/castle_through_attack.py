#!/usr/bin/env -S python3 -S
"""Planted bug: castling checks the king's start and destination squares but not the square
it passes over."""
import chess

from perftree_protocol import legal, run

# (king from, king to, square passed over, squares that must be empty, rook square)
CASTLES = ((chess.E1, chess.G1, chess.F1, (chess.F1, chess.G1), chess.H1),
           (chess.E1, chess.C1, chess.D1, (chess.D1, chess.C1, chess.B1), chess.A1),
           (chess.E8, chess.G8, chess.F8, (chess.F8, chess.G8), chess.H8),
           (chess.E8, chess.C8, chess.D8, (chess.D8, chess.C8, chess.B8), chess.A8))


def moves(board):
    out = legal(board)
    if board.is_check():
        return out
    enemy = not board.turn
    for king, to, over, empty, rook in CASTLES:
        move = chess.Move(king, to)
        if (board.king(board.turn) == king and board.castling_rights & chess.BB_SQUARES[rook]
                and all(board.piece_at(s) is None for s in empty)
                and not board.is_attacked_by(enemy, to) and board.is_attacked_by(enemy, over)
                and move not in out):
            out.append(move)
    return out


run(moves)
