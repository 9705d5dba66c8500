#!/usr/bin/env -S python3 -S
"""Planted bug: a capture on a rook's corner does not clear that side's castling right, so the
right comes back once another rook stands on the corner; but a FEN is read strictly, a right
whose rook is not on its corner dropped (as python-chess and many engines read one), so no FEN
of the position right after the capture shows the kept right: only one after a rook returns."""
import chess

from perftree_protocol import legal, run


class CaptureKeepsRight(chess.Board):
    def set_fen(self, fen):
        super().set_fen(fen)
        self.castling_rights = self.clean_castling_rights()

    def push(self, move):
        # a right ends when its king or rook leaves its square, never by what lands there
        rights = self.castling_rights & ~chess.BB_SQUARES[move.from_square]
        if self.king(self.turn) == move.from_square:
            rights &= ~(chess.BB_RANK_1 if self.turn == chess.WHITE else chess.BB_RANK_8)
        super().push(move)
        self.castling_rights = rights


def moves(board):
    """The legal moves of its rights: castling needs its own rook on the corner."""
    out = []
    for move in legal(board):
        if board.is_castling(move):
            rank = chess.square_rank(move.from_square)
            corner = chess.square(7 if move.to_square > move.from_square else 0, rank)
            if board.piece_at(corner) != chess.Piece(chess.ROOK, board.turn):
                continue
        out.append(move)
    return out


run(moves, board_class=CaptureKeepsRight)
