#!/usr/bin/env -S python3 -S
"""Planted bug: the en-passant square of a double push is kept one move too long: the side that
could take en passant may still take on its next turn, if the pushed pawn is still there and
the square still empty (an engine that clears the square only when its own side moves, say).
Asked about a position's own FEN it is right; reached by moves after a double push, it is not."""
import chess

from perftree_protocol import legal, run


class EpKeptTooLong(chess.Board):
    def push(self, move):
        history = self.__dict__.setdefault("history", [self.ep_square])   # the true square after each ply
        super().push(move)
        history.append(self.ep_square)
        stale = history[-3] if len(history) >= 3 else None
        if self.ep_square is None and stale is not None and self.piece_at(stale) is None:
            pushed = stale + (8 if self.turn == chess.BLACK else -8)
            if self.piece_at(pushed) == chess.Piece(chess.PAWN, not self.turn):
                self.ep_square = stale

    def pop(self):
        self.history.pop()
        return super().pop()


run(legal, board_class=EpKeptTooLong)
