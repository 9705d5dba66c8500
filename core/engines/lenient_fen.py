"""Lenient FENs for comparisons: what python-chess and Stockfish accept, perftscope compares.

    >>> lenient_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1")
    ('4k3/8/8/8/8/8/8/4K3 w - - 0 1', ["castling right 'K' dropped: no white rook on h1"])

core.board.position refuses a castling right whose king or rook is not on its square, and an en-passant
square no pawn can have just crossed: such a FEN describes no real game. But positions like that
are common in test suites, and both python-chess and Stockfish drop what cannot stand and play
on; an engine bug that shows only there must be chaseable. Everything else the validator
refuses (a missing king, pawns on the back rank, the side not to move in check) stays refused.
"""
from __future__ import annotations

import chess

from ..errors import FenError
from ..board.position import Position

_LENIENT_FIELDS = ("FEN field 3", "FEN field 4")     # castling, en passant
_CORNERS = {"K": ("white", "e1", "h1"), "Q": ("white", "e1", "a1"),
            "k": ("black", "e8", "h8"), "q": ("black", "e8", "a8")}


def lenient_fen(fen: str) -> tuple[str, list[str]]:
    """(the FEN normalised as python-chess does, one warning per thing dropped); FenError as
    core.board.position raises it when the FEN is wrong in a way no tool accepts."""
    try:
        return Position.from_fen(fen).fen(), []
    except FenError as e:
        strict = e
        if not str(e).startswith(_LENIENT_FIELDS):
            raise
    fields = fen.split()
    try:
        board = chess.Board(" ".join(fields))
    except ValueError:
        raise strict from None
    warnings = []
    kept = board.castling_xfen()
    for letter in fields[2]:
        if letter in _CORNERS and letter not in kept:
            colour, king, rook = _CORNERS[letter]
            piece = board.piece_at(chess.parse_square(king))
            if piece is None or piece.symbol() != ("K" if colour == "white" else "k"):
                why = f"the {colour} king is not on {king}"
            else:
                why = f"no {colour} rook on {rook}"
            warnings.append(f"castling right {letter!r} dropped: {why}")
    normal = board.fen()                  # en passant only when a legal capture uses it
    ep = fields[3]
    if ep != "-" and normal.split()[3] == "-":
        warnings.append(f"en-passant square {ep} dropped: no pawn can capture there")
    try:
        Position.from_fen(normal)
    except FenError:
        raise strict from None
    return normal, warnings
