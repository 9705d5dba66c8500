"""Lenient FENs for comparisons: what python-chess and Stockfish accept, perftscope compares.

    >>> lenient_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1")
    ('4k3/8/8/8/8/8/8/4K3 w - - 0 1', ["castling right 'K' dropped: no white rook on h1"])

core.board.position refuses a castling right whose king or rook is not on its square, and an en-passant
square no pawn can have just crossed: such a FEN describes no real game. But positions like that
are common in test suites, and python-chess drops what cannot stand and plays on (Stockfish
misreads some: a `Q` with no rook on a1 takes the first rook it finds); an engine bug that shows
only there must be chaseable. Everything else the validator refuses (a missing king, pawns on
the back rank, the side not to move in check) stays refused.

The truth is the FEN with what cannot stand dropped: the reference is asked about that one. The
engine under test is asked about the FEN as written (`fen_as_written`), since reading such a FEN
is the engine's own work: one that castles with a right whose rook is missing has a bug that the
dropped FEN would hide.
"""
from __future__ import annotations

import chess

from ..errors import FenError
from ..board.position import Position, reads_as_chess960

_LENIENT_FIELDS = ("FEN field 3", "FEN field 4")     # castling, en passant
_CORNERS = {"K": ("white", "e1", "h1"), "Q": ("white", "e1", "a1"),
            "k": ("black", "e8", "h8"), "q": ("black", "e8", "a8")}


def lenient_fen(fen: str) -> tuple[str, list[str]]:
    """(the FEN normalised as python-chess does, one warning per thing dropped); FenError as
    core.board.position raises it when the FEN is wrong in a way no tool accepts."""
    _, normal, warnings = lenient_position(fen)
    return normal, warnings


def lenient_position(fen: str) -> tuple[Position, str, list[str]]:
    """(its Position, the normalised FEN, the warnings) as lenient_fen says them, the FEN read
    once (twice only when something is dropped); FenError as lenient_fen raises it."""
    try:
        position = Position.from_fen(fen)
        return position, position.fen(), []
    except FenError as e:
        strict = e
        if not str(e).startswith(_LENIENT_FIELDS):
            raise
    fields = fen.split()
    try:
        board = chess.Board(" ".join(fields), chess960=reads_as_chess960(fen))
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
        return Position.from_fen(normal), normal, warnings
    except FenError:
        raise strict from None


def fen_as_written(fen: str, lenient: tuple[str, list[str]] | None = None) -> str:
    """The FEN normalised (counters filled in) but with its castling and en-passant fields as
    given, even where they cannot stand; FenError as lenient_fen raises it. `lenient`:
    lenient_fen(fen) when the caller has it already.

    >>> fen_as_written("4k3/8/8/8/8/8/8/4K3 w K -")
    '4k3/8/8/8/8/8/8/4K3 w K - 0 1'
    """
    normal, warnings = lenient or lenient_fen(fen)
    if not warnings:
        return normal
    fields, given = normal.split(), fen.split()
    fields[2:4] = given[2:4]
    return " ".join(fields)
