#!/usr/bin/env -S python3 -S
"""Planted bug: making a castling move puts the king on its square but leaves the rook in its
corner (the move generator itself is right)."""
import chess

from perftree_protocol import legal, run


class RookStays(chess.Board):
    def push(self, move):
        castling = self.is_castling(move)
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        super().push(move)
        if castling:          # the rook the castling moved goes back to its corner
            rank = chess.square_rank(move.from_square)
            went = chess.square(5 if kingside else 3, rank)
            color = self.color_at(went)
            self._remove_piece_at(went)        # BaseBoard's: Board's would clear the move stack
            self._set_piece_at(chess.square(7 if kingside else 0, rank), chess.ROOK, color)


run(legal, board_class=RookStays)
