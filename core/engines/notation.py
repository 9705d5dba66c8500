"""Moves as engines write them, read against the position they were written in.

    >>> board = chess.Board()
    >>> read_move(board, "Nb1-a3"), read_move(board, "e2e4"), read_move(board, "Nf3")
    (Read('b1a3', 'long algebraic', ''), Read('e2e4', 'uci', ''), Read('g1f3', 'san', ''))

Three notations: UCI (`e2e4`, `e7e8q`), long algebraic (`Nb1-a3`, `e2-e4`, `Ne5xg6`, `e7-e8=Q`,
`c7-c8N`, a piece letter and/or a `-`/`x` between the squares) and SAN (`Nf3`, `exd5`, `e8=Q+`),
castling as `O-O`/`0-0`, the king's two-square move (`e1g1`) or the king taking its rook
(`e1h1`, which standard chess reads as `e1g1`; Chess960 writes castling that way itself).
What a move reads to is UCI as the position writes it. A promotion written without its piece
reads to four characters (`b7b8`): the caller decides what that means.
"""
from __future__ import annotations

import re
from typing import NamedTuple

import chess

CASTLE_WORDS = {"O-O": True, "0-0": True, "O-O-O": False, "0-0-0": False}
_COORDINATE = re.compile(r"(?P<piece>[KQRBNP])?(?P<from>[a-h][1-8])(?P<sep>[-x:]?)(?P<to>[a-h][1-8])"
                         r"(?P<eq>=?)(?P<promo>[QRBNqrbn]?)[+#]?(?:e\.?p\.?)?")
_UPPER_UCI = re.compile(r"[A-H][1-8][A-H][1-8][QRBNqrbn]?")
# what may be a move in any notation (a row's {move}, a word calibration looks at)
MOVE_PATTERN = (r"(?:O-O-O|O-O|0-0-0|0-0|[KQRBNP]?[a-hA-H][1-8][-x:]?[a-hA-H][1-8](?:=?[QRBNqrbn])?"
                r"|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h]x[a-h][1-8](?:=?[QRBN])?|[a-h][1-8](?:=?[QRBN])?)"
                r"[+#]?(?:e\.?p\.?)?")
MOVE_WORD = re.compile(rf"(?<![\w/.=-]){MOVE_PATTERN}(?![\w/=-])")


class Read(NamedTuple):
    """A move read: its UCI, the notation it was written in, and how a castling was written
    ('O-O', 'king two squares', 'king takes rook'; '' for any other move)."""
    uci: str
    notation: str
    castling: str


def read_move(board: chess.Board, word: str, san: bool = True) -> Read | None:
    """`word` as a move of `board` (its side to move), or None when it is not one. SAN is
    resolved against the position, legal moves first, then pseudo-legal ones (an engine may
    generate an illegal move); `san=False` reads coordinates and castling words only."""
    word = word.strip()
    bare = word.rstrip("+#")
    if bare in CASTLE_WORDS:
        uci = _castle(board, CASTLE_WORDS[bare])
        return None if uci is None else Read(uci, "", "O-O")   # says nothing of the notation
    if _UPPER_UCI.fullmatch(word):
        word = word.lower()
    match = _COORDINATE.fullmatch(word)
    if match:
        return _coordinate(board, match)
    if san:
        return _san(board, word)
    return None


def _coordinate(board: chess.Board, match) -> Read:
    start, to = match.group("from"), match.group("to")
    written_long = bool(match.group("piece") or match.group("sep") or match.group("eq"))
    notation = "long algebraic" if written_long else "uci"
    uci = start + to + match.group("promo").lower()
    castling = ""
    king = board.piece_at(chess.parse_square(start))
    if king is not None and king.piece_type == chess.KING and king.color == board.turn:
        to_square, from_square = chess.parse_square(to), chess.parse_square(start)
        target = board.piece_at(to_square)
        if target is not None and target.piece_type == chess.ROOK and target.color == board.turn:
            castling = "king takes rook"
            if not board.chess960 and chess.square_rank(from_square) == chess.square_rank(to_square):
                file = 6 if chess.square_file(to_square) > chess.square_file(from_square) else 2
                uci = start + chess.square_name(chess.square(file, chess.square_rank(from_square)))
        elif not board.chess960 and abs(chess.square_file(to_square) - chess.square_file(from_square)) == 2 \
                and chess.square_rank(from_square) == chess.square_rank(to_square):
            castling = "king two squares"
    return Read(uci, notation, castling)


def _castle(board: chess.Board, kingside: bool) -> str | None:
    for move in board.generate_castling_moves():
        if (chess.square_file(move.to_square) > chess.square_file(move.from_square)) == kingside:
            return board.uci(move)
    # not legal here (the engine may castle illegally): the king towards the rook of that side
    king = board.king(board.turn)
    rooks = [sq for sq in chess.scan_forward(board.rooks & board.occupied_co[board.turn])
             if king is not None and chess.square_rank(sq) == chess.square_rank(king)
             and (sq > king) == kingside]
    if king is None or not rooks:
        return None
    rook = max(rooks) if kingside else min(rooks)
    if board.chess960:
        return chess.square_name(king) + chess.square_name(rook)
    file = 6 if kingside else 2
    return chess.square_name(king) + chess.square_name(chess.square(file, chess.square_rank(king)))


def _san(board: chess.Board, word: str) -> Read | None:
    try:
        return Read(board.parse_san(word).uci(), "san", "")
    except ValueError:
        pass
    stripped = word.rstrip("+#").replace("0", "O")
    for move in board.generate_pseudo_legal_moves():
        if board.san(move).rstrip("+#") == stripped:
            return Read(move.uci(), "san", "")
    return None


def is_bare_promotion(board: chess.Board, uci: str) -> bool:
    """A pawn of the side to move reaching the last rank, written without its piece."""
    if len(uci) != 4:
        return False
    piece = board.piece_at(chess.parse_square(uci[:2]))
    last = 7 if board.turn == chess.WHITE else 0
    return (piece is not None and piece.piece_type == chess.PAWN and piece.color == board.turn
            and chess.square_rank(chess.parse_square(uci[2:])) == last)


def wrong_side(board: chess.Board, uci: str) -> bool:
    """The move starts where the side to move has no piece."""
    try:
        piece = board.piece_at(chess.parse_square(uci[:2]))
    except ValueError:
        return False
    return piece is None or piece.color != board.turn
