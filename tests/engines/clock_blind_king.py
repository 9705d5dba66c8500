#!/usr/bin/env -S python3 -S
"""Planted bug: once the halfmove clock reaches 40, kings are not generated any move."""
import chess

from perftree_protocol import legal, run


def moves(board):
    if board.halfmove_clock >= 40:
        return [m for m in legal(board) if board.piece_type_at(m.from_square) != chess.KING]
    return legal(board)


run(moves)
